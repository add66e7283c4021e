// Report layouts with the visual slot editor, against the emulator: a layout with two image boxes
// drawn and placed with the mouse is saved and reads back from the service with the same
// coordinates; the editor works with the keyboard alone; ready-made layouts offer no edit. The flow
// runs in Spanish; each screen is checked in Spanish and in English.
import type { Locator, Page } from '@playwright/test';
import { api } from '../support/emulator/emulator';
import { expect, test } from '../support/e2e/app-fixtures';
import { tabTo } from '../support/e2e/keyboard';
import { checkScreenInBoth, onboard, texts, type Lang } from '../support/e2e/ui-steps';

type Slot = { x: number; y: number; w: number; h: number; label?: string | null };
type Template = { id: string; name: string; is_default: boolean; pages: { name?: string | null; slots: Slot[] }[] };

async function slotRect(slot: Locator): Promise<Slot> {
  const n = async (a: string): Promise<number> => Number(await slot.getAttribute(`data-${a}`));
  return { x: await n('x'), y: await n('y'), w: await n('w'), h: await n('h') };
}

/** Drags on the sheet between two points given as fractions of the page. */
async function dragOnSheet(page: Page, sheet: Locator, from: [number, number], to: [number, number]): Promise<void> {
  const box = await sheet.boundingBox();
  if (!box) throw new Error('no sheet');
  await page.mouse.move(box.x + from[0] * box.width, box.y + from[1] * box.height);
  await page.mouse.down();
  await page.mouse.move(box.x + to[0] * box.width, box.y + to[1] * box.height, { steps: 8 });
  await page.mouse.up();
}

async function templatesOnService(info: Parameters<typeof api>[0], key: string): Promise<Template[]> {
  return (await api(info, key, 'GET', '/templates')).json['templates'] as Template[];
}

// The flows run in depth in Spanish; every screen is checked in Spanish and English.
test.describe('report layouts (es)', () => {
  const lang: Lang = 'es';
  test.use({ locale: 'es-ES' });
  // A flow in depth whose screens are each checked in two languages.
  test.setTimeout(180_000);

  test('a layout with two image boxes drawn with the mouse is saved and reads back the same', async ({
    page,
    app,
    emulator,
  }) => {
    const t = texts(lang);
    const key = emulator.info.keys.pro;
    const name = `Panorámica y corte ${lang} ${Date.now()}`;
    await page.goto(app.info.url);
    await onboard(page, t, key);
    await page.getByRole('link', { name: t('templates.nav') }).click();
    await expect(page.getByRole('heading', { name: t('templates.title') })).toBeVisible();

    const { system, sheet, slots } =
      await test.step('Ready-made layouts are marked and offer no edit, rename or delete', async () => {
        // Ready-made layouts are marked and offer no edit, rename or delete.
        const system = page.getByTestId('templates-system').getByTestId('template-card');
        await expect(system.first()).toContainText(t('templates.readOnlyBadge'));
        expect(await system.count()).toBeGreaterThan(0);
        await expect(page.getByTestId('templates-system').getByTestId('template-edit')).toHaveCount(0);
        await expect(page.getByTestId('templates-system').getByTestId('template-delete')).toHaveCount(0);
        await expect(page.getByTestId('templates-system').getByTestId('template-rename')).toHaveCount(0);
        await checkScreenInBoth(page, 'templates-list');

        await page.getByTestId('template-new').click();
        await expect(page.getByRole('heading', { name: t('templates.newTitle') })).toBeVisible();
        await page.getByTestId('template-name').fill(name);
        const sheet = page.getByTestId('template-sheet');
        const slots = sheet.getByTestId('template-slot');
        await expect(slots).toHaveCount(1);
        return { system, sheet, slots };
      });

    await test.step('A second box drawn on the empty paper, then the first moved and resized with the mouse', async () => {
      // A second box drawn on the empty paper, then the first moved and resized with the mouse.
      await dragOnSheet(page, sheet, [0.55, 0.4], [0.9, 0.7]);
      await expect(slots).toHaveCount(2);
      const drawn = await slotRect(slots.nth(1));
      expect(drawn.x).toBeCloseTo(0.55, 1);
      expect(drawn.w).toBeCloseTo(0.35, 1);
      const first = await slotRect(slots.nth(0));
      await dragOnSheet(page, sheet, [first.x + 0.1, first.y + 0.1], [first.x + 0.2, first.y + 0.15]);
      const moved = await slotRect(slots.nth(0));
      expect(moved.x).toBeCloseTo(first.x + 0.1, 1);
      expect(moved.w).toBe(first.w);
      const handle = slots.nth(0).getByTestId('template-slot-handle');
      const hb = await handle.boundingBox();
      const sb = await sheet.boundingBox();
      if (!hb || !sb) throw new Error('no box');
      await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
      await page.mouse.down();
      await page.mouse.move(hb.x + hb.width / 2 + 0.05 * sb.width, hb.y + hb.height / 2 + 0.1 * sb.height, {
        steps: 5,
      });
      await page.mouse.up();
      const resized = await slotRect(slots.nth(0));
      expect(resized.x).toBe(moved.x);
      expect(resized.w).toBeCloseTo(moved.w + 0.05, 1);
      expect(resized.h).toBeCloseTo(moved.h + 0.1, 1);
    });

    await test.step('Labels', async () => {
      // Labels.
      await slots.nth(0).click();
      await page.getByTestId('slot-label').fill('Vista panorámica');
      await slots.nth(1).click();
      await page.getByTestId('slot-label').fill('Corte 1');
      await expect(slots.nth(1)).toContainText('Corte 1');
    });

    const { expected, saved } = await test.step('A page added and removed again', async () => {
      // A page added and removed again.
      await page.getByTestId('template-add-page').click();
      await expect(page.getByTestId('template-page-tab')).toHaveCount(2);
      await expect(page.getByRole('group', { name: t('templates.editor.pageOf', { n: 2, total: 2 }) })).toBeVisible();
      await page.getByTestId('template-remove-page').click();
      await expect(page.getByTestId('template-page-tab')).toHaveCount(1);
      await expect(slots).toHaveCount(2);
      await checkScreenInBoth(page, 'templates-editor');

      const expected = [await slotRect(slots.nth(0)), await slotRect(slots.nth(1))];
      await page.getByTestId('template-save').click();
      await expect(page.getByTestId('templates-notice')).toContainText(t('templates.created', { name }));

      const saved = (await templatesOnService(emulator.info, key)).find((x) => x.name === name);
      expect(saved?.is_default).toBe(false);
      expect(saved?.pages).toHaveLength(1);
      expect(saved?.pages[0]?.slots).toEqual([
        { ...expected[0], label: 'Vista panorámica' },
        { ...expected[1], label: 'Corte 1' },
      ]);
      for (const s of saved?.pages[0]?.slots ?? []) {
        expect(s.x + s.w).toBeLessThanOrEqual(1);
        expect(s.y + s.h).toBeLessThanOrEqual(1);
      }
      return { expected, saved };
    });

    const { card } =
      await test.step('Opened again, the editor shows the same coordinates the service has', async () => {
        // Opened again, the editor shows the same coordinates the service has.
        const card = page.getByTestId('templates-own').getByTestId('template-card').filter({ hasText: name });
        await card.getByTestId('template-edit').click();
        await expect(slots).toHaveCount(2);
        expect([await slotRect(slots.nth(0)), await slotRect(slots.nth(1))]).toEqual(expected);
        return { card };
      });

    await test.step('An unsaved change is not dropped silently', async () => {
      // An unsaved change is not dropped silently: leaving asks first, and "keep editing" stays.
      await slots.nth(1).focus();
      await page.keyboard.press('ArrowUp');
      await page.getByRole('link', { name: t('referrers.nav') }).click();
      const leave = page.getByRole('dialog', { name: t('templates.leaveTitle') });
      await expect(leave).toBeVisible();
      await checkScreenInBoth(page, 'templates-leave');
      await page.getByTestId('template-keep-editing').click();
      await expect(leave).toHaveCount(0);
      await expect(page.getByTestId('template-sheet')).toBeVisible();
      await page.getByRole('button', { name: t('common.cancel') }).click();
      await page.getByTestId('template-discard').click();
      await expect(page.getByRole('heading', { name: t('templates.title') })).toBeVisible();
      expect((await templatesOnService(emulator.info, key)).find((x) => x.name === name)?.pages[0]?.slots[1]).toEqual({
        ...expected[1],
        label: 'Corte 1',
      });
    });

    await test.step('A ready-made layout opens read-only, with a copy offered instead', async () => {
      // A ready-made layout opens read-only, with a copy offered instead.
      await system.first().getByTestId('template-view').click();
      await expect(page.getByText(t('templates.readOnlyTitle'))).toBeVisible();
      await expect(page.getByTestId('template-save')).toHaveCount(0);
      await checkScreenInBoth(page, 'templates-system-view');
      await page.getByTestId('template-copy').click();
      await expect(page.getByTestId('template-name')).toHaveValue(/.+/);
      await page.getByRole('button', { name: t('common.cancel') }).click();
    });

    await test.step('Renamed, then deleted after a confirmation', async () => {
      // Renamed, then deleted after a confirmation.
      const renamed = `${name} (v2)`;
      await card.getByTestId('template-rename').click();
      await page.getByTestId('template-rename-input').fill(renamed);
      await page.getByTestId('template-rename-save').click();
      await expect(page.getByTestId('templates-notice')).toContainText(t('templates.renamed', { name: renamed }));
      expect((await templatesOnService(emulator.info, key)).find((x) => x.id === saved?.id)?.name).toBe(renamed);
      const card2 = page.getByTestId('templates-own').getByTestId('template-card').filter({ hasText: renamed });
      await card2.getByTestId('template-delete').click();
      await expect(page.getByRole('dialog', { name: t('templates.deleteTitle') })).toContainText(renamed);
      await page.getByTestId('template-delete-confirm').click();
      await expect(page.getByTestId('templates-notice')).toContainText(t('templates.deleted', { name: renamed }));
      expect((await templatesOnService(emulator.info, key)).some((x) => x.id === saved?.id)).toBe(false);
    });
  });

  test('the slot editor works with the keyboard alone', async ({ page, app, emulator }) => {
    const t = texts(lang);
    const key = emulator.info.keys.pro;
    const name = `Teclado ${lang} ${Date.now()}`;
    await page.goto(app.info.url);
    await onboard(page, t, key);
    await tabTo(page, page.getByRole('link', { name: t('templates.nav') }));
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByTestId('template-new'));
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByTestId('template-name'));
    await page.keyboard.type(name);

    const { slots, first } = await test.step("The new page's box starts at 5 %, 5 %, 40 % × 25 %", async () => {
      // The new page's box starts at 5 %, 5 %, 40 % × 25 %.
      const slots = page.getByTestId('template-slot');
      await tabTo(page, slots.nth(0));
      for (const k of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowDown'])
        await page.keyboard.press(k);
      for (const k of [
        'Shift+ArrowRight',
        'Shift+ArrowRight',
        'Shift+ArrowRight',
        'Shift+ArrowRight',
        'Shift+ArrowRight',
        'Shift+ArrowUp',
      ])
        await page.keyboard.press(k);
      await page.keyboard.press('Control+ArrowRight');
      const first = { x: 0.081, y: 0.07, w: 0.45, h: 0.24 };
      expect(await slotRect(slots.nth(0))).toEqual(first);
      // Screen readers hear where the box is now.
      await expect(page.getByTestId('template-announcer')).toHaveText(
        t('templates.editor.position', { x: 8.1, y: 7, w: 45, h: 24 }),
      );
      return { slots, first };
    });

    await test.step("A second box added from its button, labelled, and moved to the page's left edge", async () => {
      // A second box added from its button, labelled, and moved to the page's left edge.
      await tabTo(page, page.getByTestId('template-add-slot'));
      await page.keyboard.press('Enter');
      await expect(slots).toHaveCount(2);
      await tabTo(page, page.getByTestId('slot-label'));
      await page.keyboard.type('Axial');
      await tabTo(page, slots.nth(1), { backwards: true });
      for (let i = 0; i < 15; i++) await page.keyboard.press('ArrowLeft');
      for (let i = 0; i < 10; i++) await page.keyboard.press('Shift+ArrowDown');
      const second = { x: 0, y: 0.1, w: 0.4, h: 0.35 };
      expect(await slotRect(slots.nth(1))).toEqual(second);
      await checkScreenInBoth(page, 'templates-editor-keyboard');

      await tabTo(page, page.getByTestId('template-save'), { backwards: true, max: 80 });
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('templates-notice')).toContainText(t('templates.created', { name }));
      const saved = (await templatesOnService(emulator.info, key)).find((x) => x.name === name);
      expect(saved?.pages[0]?.slots).toEqual([first, { ...second, label: 'Axial' }]);
    });
  });

  test('with a sandbox key the screen says layouts are not kept', async ({ page, app, emulator }) => {
    const t = texts(lang);
    await page.goto(app.info.url);
    await onboard(page, t, emulator.info.keys.sandbox);
    await page.getByRole('link', { name: t('templates.nav') }).click();
    await expect(page.getByTestId('templates-sandbox')).toContainText(t('templates.sandboxTitle'));
    await expect(page.getByTestId('templates-own-empty')).toBeVisible();

    // Saving is accepted but nothing is kept: the screen says so and the clinic's list stays empty.
    const name = `Sandbox ${lang} ${Date.now()}`;
    await page.getByTestId('template-new').click();
    await page.getByTestId('template-name').fill(name);
    await page.getByTestId('template-save').click();
    await expect(page.getByTestId('templates-notice')).toContainText(t('templates.savedSandbox', { name }));
    await expect(page.getByTestId('templates-own-empty')).toBeVisible();
    await checkScreenInBoth(page, 'templates-sandbox');
    expect((await templatesOnService(emulator.info, emulator.info.keys.pro)).some((x) => x.name === name)).toBe(false);
  });
});
