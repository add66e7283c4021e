// The accessibility check every screenshot gets (ui-steps.ts runs axe-core in the page) must fail on
// a serious violation, in a page without frames (run in place) and in one with a frame (AxeBuilder).
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/e2e/ui-steps';

const lowContrast = '<main><h1>Exámenes</h1><p style="color:#eee;background:#fff">Texto casi invisible</p></main>';

test('the screen check fails on low contrast and on a button without a name, and passes a clean page', async ({
  page,
}) => {
  await page.setContent(
    `<!doctype html><html lang="es"><head><title>t</title></head><body>${lowContrast}</body></html>`,
  );
  await expect(expectNoSeriousA11yViolations(page, 'low contrast')).rejects.toThrow(/color-contrast/);

  await page.setContent(
    '<!doctype html><html lang="es"><head><title>t</title></head><body><main><button></button></main></body></html>',
  );
  await expect(expectNoSeriousA11yViolations(page, 'unnamed button')).rejects.toThrow(/button-name/);

  await page.setContent(
    '<!doctype html><html lang="es"><head><title>t</title></head><body><main><h1>Exámenes</h1><p>Listo</p></main></body></html>',
  );
  await expectNoSeriousA11yViolations(page, 'clean');
});

test('a page with a frame is checked inside the frame too', async ({ page }) => {
  const inner = `<!doctype html><html lang="es"><head><title>i</title></head><body>${lowContrast}</body></html>`;
  await page.setContent(
    `<!doctype html><html lang="es"><head><title>t</title></head><body><main><h1>Marco</h1><iframe title="marco" srcdoc='${inner}'></iframe></main></body></html>`,
  );
  await expect(page.frames()).toHaveLength(2);
  await expect(expectNoSeriousA11yViolations(page, 'frame')).rejects.toThrow(/color-contrast/);
});
