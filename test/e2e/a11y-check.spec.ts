// The accessibility check every screenshot gets (ui-steps.ts runs axe-core in the page) must fail on
// a serious violation, in a page without frames and inside a page's frame;
// checking a screen in both languages must fail on a text left in the first language.
// The project's `test` (as every spec): one kind of worker serves the whole suite, none is started for these.
import { expect, test } from '../support/e2e/app-fixtures';
import { checkScreenInBoth, expectNoSeriousA11yViolations, texts } from '../support/e2e/ui-steps';

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
  // A button without a name: a structural rule, decided from the frame's DOM alone (colour contrast
  // inside a frame depends on when the frame is painted, and axe may leave it undecided).
  const inner =
    '<!doctype html><html lang="es"><head><title>i</title></head><body><main><p>Dentro</p><button></button></main></body></html>';
  await page.setContent(
    `<!doctype html><html lang="es"><head><title>t</title></head><body><main><h1>Marco</h1><iframe title="marco" srcdoc='${inner}'></iframe></main></body></html>`,
  );
  await expect(page.frames()).toHaveLength(2);
  // The frame's document loads after setContent returns: check it once its text is there.
  await expect(page.frameLocator('iframe').getByText('Dentro')).toBeVisible();
  await expect(expectNoSeriousA11yViolations(page, 'frame')).rejects.toThrow(/button-name/);
});

test('checking a screen in both languages fails on a text that did not follow the language switch', async ({
  page,
}) => {
  const es = texts('es');
  const en = texts('en');
  // A window whose language switch changes the page's language and one of its two texts only.
  await page.setContent(`<!doctype html><html lang="es"><head><title>t</title></head><body><main>
    <select data-testid="language-switch" aria-label="Idioma"><option value="es">Español</option><option value="en">English</option></select>
    <h1 id="followed">${es('activity.title')}</h1><p>${es('exams.filterLabel')}</p>
    <p>${es('exams.share.printDownloaded', { file: 'hoja.pdf' })}</p></main>
    <script>document.querySelector('select').addEventListener('change', (e) => {
      document.documentElement.lang = e.target.value;
      document.getElementById('followed').textContent = e.target.value === 'en' ? ${JSON.stringify(en('activity.title'))} : ${JSON.stringify(es('activity.title'))};
    });</script></body></html>`);
  const failure = await checkScreenInBoth(page, 'language-switch-check').then(
    () => 'passed',
    (e: Error) => e.message,
  );
  // Both the plain text and the one with a place ({{file}}) are named; the text that followed is not.
  expect(failure).toContain(es('exams.filterLabel'));
  expect(failure).toContain(es('exams.share.printDownloaded', { file: 'hoja.pdf' }));
  expect(failure).not.toContain(es('activity.title'));
});
