// Keyboard alone completes the front desk's flow: key, watch folder, review, upload, follow to ready.
import { dropCbctExport } from '../support/e2e/scanner-exports';
import { expect, test } from '../support/e2e/app-fixtures';
import { tabTo } from '../support/e2e/keyboard';
import { texts } from '../support/e2e/ui-steps';

test('the whole flow works with the keyboard only', async ({ page, app, emulator, watchDir }) => {
  const t = texts('en');
  await page.goto(app.info.url);

  const key = page.getByLabel(t('onboarding.keyLabel'));
  await tabTo(page, key);
  await page.keyboard.type(emulator.info.keys.pro);
  await page.keyboard.press('Enter'); // verifies
  await expect(page.getByTestId('key-verified')).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: t('onboarding.save') }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/inbox$/);

  await tabTo(page, page.getByRole('link', { name: t('nav.settings') }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/settings$/);
  await tabTo(page, page.getByLabel(t('settings.folders.path'), { exact: true }));
  await page.keyboard.type(watchDir);
  await tabTo(page, page.getByTestId('folder-settle'));
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('1');
  await tabTo(page, page.getByRole('button', { name: t('settings.folders.add') }));
  await page.keyboard.press('Enter');
  await expect(page.locator(`[data-testid="watch-folder"][data-path="${watchDir}"]`)).toBeVisible();

  await dropCbctExport(watchDir, 'EXPORT_KBD');
  await tabTo(page, page.getByRole('link', { name: t('nav.inbox') }), { backwards: true });
  await page.keyboard.press('Enter');
  const name = page.getByTestId('inbox-detail').getByLabel(t('inbox.fields.name'));
  await expect(name).toBeVisible({ timeout: 30_000 });
  await tabTo(page, name);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Keyboard only — Muñoz');
  await page.keyboard.press('Enter'); // submits the study's form: upload

  const seeUploads = page.getByTestId('see-uploads');
  await expect(seeUploads).toBeVisible();
  await tabTo(page, seeUploads, { backwards: true });
  await page.keyboard.press('Enter');
  const job = page.getByTestId('upload-job').filter({ hasText: 'Keyboard only — Muñoz' });
  await expect(job).toHaveAttribute('data-phase', 'ready', { timeout: 60_000 });
  await tabTo(page, job.getByTestId('viewer-link'));
});
