// The service goes away in the middle of an upload (its process is restarted on the same data) and
// the job still ends "ready", with one exam on the service: the window shows it all the way.
import { rmSync } from 'node:fs';
import { EmulatorProcess } from '../support/emulator/emulator';
import { listExams } from '../support/e2e/service-calls';
import { dropCbctExport } from '../support/e2e/scanner-exports';
import { expect, test } from '../support/e2e/app-fixtures';
import { ServeProcess } from '../support/e2e/serve-process';
import { addWatchFolder, checkScreen, onboard, texts } from '../support/e2e/ui-steps';

test('an upload survives a restart of the service and reaches ready', async ({ page, watchDir }) => {
  const t = texts('en');
  let emulator = await EmulatorProcess.start();
  const dataDir = emulator.dataDir;
  const app = await ServeProcess.start({ apiUrl: emulator.info.base_url });
  try {
    await page.goto(app.info.url);
    await onboard(page, t, emulator.info.keys.pro);

    // A bandwidth limit keeps the upload running long enough to restart the service under it.
    await page.getByRole('link', { name: t('nav.settings') }).click();
    await page.getByLabel(t('settings.upload.bandwidth')).fill('0.25');
    // Sent as it is: under that limit these slices would be compressed to almost nothing, and this
    // test is about a transfer in flight when the service restarts.
    await page.getByTestId('settings-upload-compress').selectOption('never');
    await page.getByTestId('settings-upload-save').click();
    await expect(page.getByText(t('common.saved')).first()).toBeVisible();
    await addWatchFolder(page, t, watchDir);
    const written = await dropCbctExport(watchDir, 'EXPORT_BIG', {
      rows: 256,
      cols: 256,
      volumeSlices: 14,
      scoutSlices: 2,
    });

    await page.getByRole('link', { name: t('nav.inbox') }).click();
    const detail = page.getByTestId('inbox-detail');
    await expect(detail).toBeVisible({ timeout: 30_000 });
    await detail.getByLabel(t('inbox.fields.name')).fill('Restart test — Muñoz');
    await detail.getByRole('button', { name: t('inbox.upload') }).click();
    await page.getByTestId('see-uploads').click();

    const job = page.getByTestId('upload-job').filter({ hasText: 'Restart test — Muñoz' });
    await expect(job).toHaveAttribute('data-phase', 'uploading', { timeout: 20_000 });
    // Some bytes are sent, not all: the progress bar is part way.
    await expect
      .poll(async () => Number(await job.getByTestId('upload-progress').getAttribute('data-value')), {
        timeout: 20_000,
      })
      .toBeGreaterThan(5);
    const before = Number(await job.getByTestId('upload-progress').getAttribute('data-value'));
    expect(before).toBeLessThan(100);
    await checkScreen(page, 'uploads-in-progress-en');

    emulator = await emulator.restart();
    expect(emulator.dataDir).toBe(dataDir);

    await expect(job).toHaveAttribute('data-phase', 'ready', { timeout: 90_000 });
    await expect(job.getByTestId('upload-stats')).toContainText(
      t('uploads.files', { done: written.files, total: written.files }),
    );
    const exams = (await listExams(emulator.info, emulator.info.keys.pro)).filter(
      (e) => e.name === 'Restart test — Muñoz',
    );
    expect(exams.map((e) => e.status)).toEqual(['ready']);
  } finally {
    await app.dispose();
    await emulator.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
