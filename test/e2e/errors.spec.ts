// What staff see when things go wrong: a key the service refuses, the hourly request allowance used
// up (429), and a storage that keeps failing. Each shows its own message, in plain words, with what to do.
import { exhaustRateLimit } from '../support/e2e/service-calls';
import { dropCbctExport } from '../support/e2e/scanner-exports';
import { expect, test } from '../support/e2e/app-fixtures';
import { addWatchFolder, checkScreen, onboard, texts } from '../support/e2e/ui-steps';

test.describe('a key the service refuses', () => {
  test('is reported as not accepted, in English', async ({ page, app }) => {
    const t = texts('en');
    await page.goto(app.info.url);
    await page.getByLabel(t('onboarding.keyLabel')).fill('cbct_live_00000000000000000000000000000000');
    await page.getByRole('button', { name: t('onboarding.verify') }).click();
    const alert = page.locator('[role="alert"][data-error-code="unauthorized"]');
    await expect(alert).toContainText(t('errors.unauthorized.title'));
    await expect(alert).toContainText(t('errors.unauthorized.action'));
    await expect(page.getByTestId('account-summary')).toHaveCount(0);
    await checkScreen(page, 'onboarding-bad-key-en');
  });

  test.describe('in Spanish', () => {
    test.use({ locale: 'es-ES' });
    test('is reported as not accepted, in Spanish, and nothing is saved', async ({ page, app }) => {
      const t = texts('es');
      await page.goto(app.info.url);
      await page.getByLabel(t('onboarding.keyLabel')).fill('cbct_test_00000000000000000000000000000000');
      await expect(page.getByTestId('key-kind-guess')).toContainText(t('onboarding.looksSandbox'));
      await page.getByRole('button', { name: t('onboarding.save') }).click();
      const alert = page.locator('[role="alert"][data-error-code="unauthorized"]');
      await expect(alert).toContainText('El servicio no aceptó la clave');
      await checkScreen(page, 'onboarding-bad-key-es');
      const status = await app.rpc<{ live: { present: boolean }; sandbox: { present: boolean } }>('keys:status');
      expect(status.live.present || status.sandbox.present).toBe(false);
    });
  });
});

test.describe('the hourly request allowance used up', () => {
  // A 3-minute rate window: long enough not to renew during the test.
  test.use({ emulatorOptions: { timeScale: 0.05 } });

  test('shows the rate-limit message and an empty meter', async ({ page, app, emulator }) => {
    const t = texts('en');
    await page.goto(app.info.url);
    await onboard(page, t, emulator.info.keys.free);
    await exhaustRateLimit(emulator.info, emulator.info.keys.free);

    await page.getByRole('link', { name: t('nav.account') }).click();
    await page.getByRole('button', { name: t('common.refresh') }).click();
    const alert = page.locator('[role="alert"][data-error-code="rate_limited"]');
    await expect(alert).toContainText(t('errors.rate_limited.title'));
    await expect(alert).toContainText(t('errors.rate_limited.action'));
    await expect(page.getByTestId('rate-meter')).toContainText(t('rate.compact', { remaining: '0', limit: '100' }));
    await expect(page.getByTestId('rate-meter-full')).toContainText(/used up until/);
    await checkScreen(page, 'account-rate-limited-en');
  });
});

test.describe('a storage that keeps failing', () => {
  // Its own emulator: the faults stay armed after the test.
  test.use({ locale: 'es-ES', emulatorOptions: {} });

  test('ends the upload with the storage message and what to do, in Spanish', async ({
    page,
    app,
    emulator,
    watchDir,
  }) => {
    const t = texts('es');
    await page.goto(app.info.url);
    await onboard(page, t, emulator.info.keys.pro);
    await addWatchFolder(page, t, watchDir);
    await emulator.control('POST', '/faults', { target: 'storage', mode: 'error500', count: 100_000 });
    await dropCbctExport(watchDir, 'EXPORT_FAULT', { volumeSlices: 2, scoutSlices: 1 });

    await page.getByRole('link', { name: t('nav.inbox') }).click();
    const detail = page.getByTestId('inbox-detail');
    await expect(detail).toBeVisible({ timeout: 30_000 });
    await detail.getByRole('button', { name: t('inbox.upload') }).click();
    await page.getByTestId('see-uploads').click();

    const job = page.getByTestId('upload-job').first();
    const error = job.getByTestId('upload-error');
    await expect(error).toBeVisible({ timeout: 120_000 });
    const code = await error.getAttribute('data-error-code');
    expect(code).toBeTruthy();
    await expect(error).toContainText(t(`errors.${code}.title`));
    await expect(error).toContainText(t(`errors.${code}.action`));
    await checkScreen(page, 'uploads-storage-fault-es');
  });
});
