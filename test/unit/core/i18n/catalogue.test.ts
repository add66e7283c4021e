// The core's and the command line's catalogue (renderer/locales/<lang>/{core,cli}.json and the
// network failures' lines in <lang>.json): both languages hold the same keys with the same
// placeholders and plural forms, and t() answers in the language it is asked for, call by call.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { t } from '@main/core/i18n';
import { repoRoot } from '@support/repo-paths';
import { flattenLocaleTree as flatten, type LocaleTree as Tree } from '../../../support/locales';

const read = (path: string): Tree =>
  JSON.parse(readFileSync(join(repoRoot, 'renderer', 'locales', path), 'utf8')) as Tree;

/** What the core reads in one language: core.json, cli.json and the `errors` of the base file. */
function catalogue(lang: 'es' | 'en'): Map<string, string> {
  return flatten({
    core: read(`${lang}/core.json`),
    cli: read(`${lang}/cli.json`),
    errors: read(`${lang}.json`)['errors'] as Tree,
  });
}

const placeholders = (text: string): string[] =>
  [...new Set([...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1] as string))].sort();
const en = catalogue('en');
const es = catalogue('es');

describe("the core's catalogue", () => {
  it('has every key in both languages, with the same placeholders', () => {
    expect(en.size).toBeGreaterThan(150);
    expect([...es.keys()].sort()).toEqual([...en.keys()].sort());
    const differing = [...en].filter(([k, v]) => placeholders(v).join() !== placeholders(es.get(k) ?? '').join());
    expect(differing).toEqual([]);
  });

  it('gives each plural its one and other forms, with {{count}} in each', () => {
    const plural = [...en.keys()].filter((k) => /_(one|other)$/.test(k));
    expect(plural.length).toBeGreaterThan(5);
    for (const k of plural) {
      const base = k.replace(/_(one|other)$/, '');
      for (const texts of [en, es]) {
        expect(texts.has(`${base}_one`) && texts.has(`${base}_other`), base).toBe(true);
        expect(texts.get(k), k).toContain('{{count}}');
      }
    }
  });
});

describe('t()', () => {
  it('answers each call in the language it names, with no language held between calls', () => {
    const calls = ['es', 'en', 'es', 'en'] as const;
    expect(calls.map((lang) => t(lang, 'cli.receive.stopped'))).toEqual([
      'Detenido.',
      'Stopped.',
      'Detenido.',
      'Stopped.',
    ]);
  });

  it('chooses plural forms in each language, round millions in Spanish included', () => {
    expect([1, 2].map((count) => t('en', 'core.clock.day', { count }))).toEqual(['1 day', '2 days']);
    expect([1, 2, 0].map((count) => t('es', 'core.clock.day', { count }))).toEqual(['1 día', '2 días', '0 días']);
    // CLDR gives Spanish a "many" form for round millions; the catalogue's "other" says it.
    expect(t('es', 'cli.scan.studies', { count: 1_000_000 })).toBe('1000000 estudios');
  });

  it('puts values in as they are: no HTML escaping in terminal lines and PDF texts', () => {
    const text = t('en', 'core.receive.problem.not_allowed', { calling_aet: '<A&"B\'>', address: '10.0.0.1' });
    expect(text).toBe('refused an association from <A&"B\'> at 10.0.0.1: not on the allow-list');
  });
});
