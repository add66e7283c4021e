// Steps and checks the specs share: the window's texts per language, screenshots, axe, and the
// common front-desk steps done through the UI as staff would.
import axeCore from 'axe-core';
import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadLocaleTree } from '../locales';
import { expect } from './app-fixtures';
import { repoRoot } from '../repo-paths';

export type Lang = 'en' | 'es';
type Tree = { [k: string]: string | Tree };

const root = repoRoot;
const screenshotDir = join(root, 'test', '.artifacts', 'screenshots');

/** The window's texts in `lang`, read from the shipped locale file (so the specs check what staff see). */
export function texts(lang: Lang): (key: string, vars?: Record<string, string | number>) => string {
  const tree = loadLocaleTree(lang) as Tree;
  return (key, vars = {}) => {
    let node: string | Tree | undefined = tree;
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    if (typeof node !== 'string') throw new Error(`no text ${key} in ${lang}.json`);
    return node.replace(/\{\{(\w+)\}\}/g, (_m, v: string) => String(vars[v] ?? `{{${v}}}`));
  };
}

/**
 * Writes a 1280×800 screenshot to test/.artifacts/screenshots/<name>.png (git-ignored); with
 * `fullPage`, also <name>-full.png with everything below the fold.
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  // Let the progress bars and transitions settle so the picture shows the steady screen.
  await settleAnimations(page);
  await page.screenshot({ path: join(screenshotDir, `${name}.png`) });
  if (options.fullPage) await page.screenshot({ path: join(screenshotDir, `${name}-full.png`), fullPage: true });
}

/**
 * Waits until every finite CSS transition and animation has ended (a modal fading in, a menu
 * sliding down). Until then the colours axe reads are mid-fade blends, and a red button in a
 * modal that is still fading in fails the contrast rule although the steady screen passes.
 * Endless animations (spinners, striped progress bars) are left running.
 */
export async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const frames = () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
    for (let round = 0; round < 5; round++) {
      // A transition starts a frame after its element mounts (Mantine's pre-entering state).
      await frames();
      const finite = document
        .getAnimations()
        .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
      if (finite.length === 0) return;
      await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
    }
  });
}

const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

type AxeViolation = { id: string; impact?: string | null; help: string; nodes: { target: unknown[] }[] };

/**
 * The violations axe-core finds on the page, every frame's document checked on its own. axe is put
 * into a document the first time one of its screens is checked and stays there (putting its large
 * script in again costs the renderer's CPU on every check); it runs there, without frame messaging.
 * AxeBuilder's frame handling is not used: it gives a frame a short time to take axe's script and
 * skips it silently when that runs late, which on a busy machine leaves frames unchecked; its default
 * mode also opens a blank page of its own on every check, which is slow.
 */
async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const found: AxeViolation[] = [];
  for (const frame of page.frames()) {
    if (await frame.evaluate(() => !('axe' in window))) await frame.evaluate(axeCore.source);
    const result = await frame.evaluate(
      (tags) =>
        (window as unknown as { axe: typeof axeCore }).axe.run(document, {
          runOnly: { type: 'tag', values: tags },
          resultTypes: ['violations'],
          iframes: false,
        }),
      axeTags,
    );
    found.push(...result.violations);
  }
  return found;
}

/** Runs axe-core on the page once it has settled and fails on any serious or critical violation. */
export async function expectNoSeriousA11yViolations(page: Page, screen: string): Promise<void> {
  await settleAnimations(page);
  const bad = (await axeViolations(page))
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes
          .slice(0, 5)
          .map((n) => n.target.join(' '))
          .join('\n  ')}`,
    );
  expect(bad, `axe on ${screen}`).toEqual([]);
}

/** Takes the screenshot and runs axe: what every screen gets. */
export async function checkScreen(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  // The pointer rests in a corner, as a hover state is not the screen's steady look.
  await page.mouse.move(1279, 799);
  await expectNoSeriousA11yViolations(page, name);
  await screenshot(page, name, options);
}

/** Every text of the window in `lang`, as written in its locale files (with their `{{…}}` places). */
function allTexts(lang: Lang): Set<string> {
  const out = new Set<string>();
  const walk = (node: Tree): void => {
    for (const value of Object.values(node)) {
      if (typeof value === 'string') out.add(value.trim());
      else walk(value);
    }
  };
  walk(loadLocaleTree(lang) as Tree);
  return out;
}

/**
 * The texts of `from` that `to` does not have. Seen on a screen shown in `to`, one of them is a text
 * that did not follow the language switch. `exact`: plain texts of at least 4 characters, matched
 * whole. `patterns`: anchored patterns for texts with `{{…}}` places (any words in a place) whose
 * fixed words make at least 6 characters and that do not both start and end with a place.
 */
function textsOnlyIn(from: Lang, to: Lang): { exact: string[]; patterns: string[] } {
  const theirs = allTexts(to);
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const exact: string[] = [];
  const patterns: string[] = [];
  for (const text of allTexts(from)) {
    if (theirs.has(text)) continue;
    const fixed = text.split(/\{\{\s*\w+\s*\}\}/);
    if (fixed.length === 1) {
      if (text.length >= 4) exact.push(text);
      continue;
    }
    if (fixed.join('').trim().length < 6) continue;
    // A text that starts and ends with a place ("{{n}} examen de {{total}}") would match what people type.
    if (fixed[0] === '' && fixed.at(-1) === '') continue;
    patterns.push(`^${fixed.map(escape).join('[\\s\\S]+?')}$`);
  }
  return { exact, patterns };
}

/** The language the window shows now (the page's `lang`). */
export async function shownLanguage(page: Page): Promise<Lang> {
  const lang = await page.locator('html').getAttribute('lang');
  if (lang !== 'es' && lang !== 'en') throw new Error(`the window's language is ${String(lang)}`);
  return lang;
}

/**
 * Switches the window's language with the header's switch, as staff would, keeping the keyboard
 * focus where it was (a keyboard-only flow goes on from there).
 */
export async function switchLanguage(page: Page, lang: Lang): Promise<void> {
  const focused = await page.evaluateHandle(() => document.activeElement);
  await page.getByTestId('language-switch').first().selectOption(lang, { force: true });
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  await focused.evaluate((el) => (el instanceof HTMLElement ? el.focus() : undefined));
  await focused.dispose();
}

/**
 * The screen as it is now in both languages: `checkScreen` as `<name>-<shown language>`, then the
 * language switch, a check that every visible text changed language with it, `checkScreen` as
 * `<name>-<other>`, and back. A flow runs in depth once, in one language, and each of its screens is
 * still seen and checked in the other.
 */
export async function checkScreenInBoth(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const first = await shownLanguage(page);
  const other: Lang = first === 'es' ? 'en' : 'es';
  await checkScreen(page, `${name}-${first}`, options);
  await switchLanguage(page, other);
  const leftOver = await page.evaluate(
    (only) => {
      // A plain text is looked up whole; only texts with places need their patterns.
      const exact = new Set(only.exact);
      const patterns = only.patterns.map((source) => new RegExp(source));
      const seen = new Set<string>();
      const check = (text: string): void => {
        if (text && (exact.has(text) || patterns.some((p) => p.test(text)))) seen.add(text);
      };
      // Text on screen: visible, and not in a visually hidden live region (an announcement already
      // spoken in the language of its moment).
      const onScreen = (el: HTMLElement | null): boolean => {
        if (!el?.checkVisibility()) return false;
        const box = el.getBoundingClientRect();
        return box.width > 1 || box.height > 1;
      };
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode())
        if (onScreen(node.parentElement)) check(node.textContent?.trim() ?? '');
      for (const el of document.querySelectorAll<HTMLElement>('[aria-label],[placeholder],[title]')) {
        if (!el.checkVisibility()) continue;
        for (const attr of ['aria-label', 'placeholder', 'title']) check(el.getAttribute(attr)?.trim() ?? '');
      }
      return [...seen];
    },
    textsOnlyIn(first, other),
  );
  expect(leftOver, `texts still in ${first} on ${name} after switching to ${other}`).toEqual([]);
  await checkScreen(page, `${name}-${other}`, options);
  await switchLanguage(page, first);
}

/** Pastes a key on the onboarding screen and saves it; ends in the inbox. */
export async function onboard(page: Page, t: ReturnType<typeof texts>, key: string): Promise<void> {
  await expect(page.getByRole('heading', { name: t('onboarding.title') })).toBeVisible();
  await page.getByLabel(t('onboarding.keyLabel'), { exact: true }).fill(key);
  await page.getByRole('button', { name: t('onboarding.save') }).click();
  await expect(page).toHaveURL(/#\/inbox$/);
}

/** Adds a watch folder in Settings (review mode, a short quiet time so tests do not wait). */
export async function addWatchFolder(
  page: Page,
  t: ReturnType<typeof texts>,
  path: string,
  settleSeconds = 1,
): Promise<void> {
  await page.getByRole('link', { name: t('nav.settings') }).click();
  await page.getByLabel(t('settings.folders.path'), { exact: true }).fill(path);
  await page.getByTestId('folder-settle').fill(String(settleSeconds));
  await page.getByRole('button', { name: t('settings.folders.add') }).click();
  await expect(page.locator(`[data-testid="watch-folder"][data-path="${path}"]`)).toBeVisible();
}
