// Keyboard-only driving: Tab through the page as a person would until the wanted control has focus.
import type { Locator, Page } from '@playwright/test';
import { expect } from './app-fixtures';

/** Presses Tab (or Shift+Tab) until `target` has focus; fails after `max` presses. Checks the focus is visible. */
export async function tabTo(
  page: Page,
  target: Locator,
  options: { max?: number; backwards?: boolean } = {},
): Promise<void> {
  const max = options.max ?? 60;
  await expect(target).toBeVisible();
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) {
      // A visible focus indicator: an outline (Mantine's focus ring, or ours) on the focused control.
      const outline = await target.evaluate((el) => {
        const s = getComputedStyle(el);
        return s.outlineStyle !== 'none' && s.outlineWidth !== '0px' ? s.outlineStyle : s.boxShadow;
      });
      expect(outline, 'focus is visible').not.toMatch(/^(none)?$/);
      return;
    }
    await page.keyboard.press(options.backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`focus did not reach ${target.toString()} in ${max} presses`);
}
