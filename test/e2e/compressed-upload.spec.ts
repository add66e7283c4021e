// Settings → Uploads → Compression, then a compressed upload seen on the Uploads screen: the
// study being compressed ("Compressing (2.0× smaller)"), then the smaller archive on the wire
// against the study's own size, until the exam is ready — in Spanish and English.
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { writePhantomSeries } from '../support/phantom';
import { expect, test } from '../support/e2e/app-fixtures';
import { addWatchFolder, checkScreen, type Lang, onboard, screenshot, texts } from '../support/e2e/ui-steps';

const cases: { lang: Lang; locale: string }[] = [
  { lang: 'en', locale: 'en-US' },
  { lang: 'es', locale: 'es-ES' },
];

for (const { lang, locale } of cases) {
  test.describe(`in ${lang}`, () => {
    test.use({ locale });

    test(`a compressed upload says what it compresses and what it sends (${lang})`, async ({
      page,
      app,
      emulator,
      watchDir,
    }) => {
      test.setTimeout(150_000);
      const t = texts(lang);
      await page.goto(app.info.url);
      await onboard(page, t, emulator.info.keys.pro);

      await test.step('Compression set to always, the link limited to 1.5 MB/s', async () => {
        await page.getByRole('link', { name: t('nav.settings') }).click();
        await page.getByTestId('settings-upload-compress').selectOption('always');
        await page.getByTestId('settings-bandwidth').fill('1.5');
        await page.getByTestId('settings-upload-save').click();
        await expect(page.getByText(t('common.saved')).first()).toBeVisible();
        await checkScreen(page, `settings-upload-compression-${lang}`);
        await addWatchFolder(page, t, watchDir);
      });

      await test.step('A CBCT-like export (80 slices of 512 × 512) is uploaded from the inbox', async () => {
        const staging = mkdtempSync(join(tmpdir(), 'sb-e2e-compress-'));
        try {
          await writePhantomSeries(join(staging, 'CBCT_PHANTOM'), {
            slices: 80,
            size: 512,
            patientName: 'MUÑOZ^JUAN CARLOS',
          });
          renameSync(join(staging, 'CBCT_PHANTOM'), join(watchDir, 'CBCT_PHANTOM'));
        } finally {
          rmSync(staging, { recursive: true, force: true });
        }
        await page.getByRole('link', { name: t('nav.inbox') }).click();
        const detail = page.getByTestId('inbox-detail');
        await expect(detail).toBeVisible({ timeout: 60_000 });
        await detail.getByRole('button', { name: t('inbox.upload') }).click();
        await page.getByTestId('see-uploads').click();
      });

      const job = page.getByTestId('upload-job').first();
      const stats = job.getByTestId('upload-stats');
      await test.step('Compressing: the badge and the line say so, with the ratio so far', async () => {
        await expect(stats).toHaveAttribute('data-compression', 'compressing', { timeout: 60_000 });
        await expect(job.getByTestId('upload-phase')).toContainText(t('uploads.compression.compressing'));
        await screenshot(page, `uploads-compressing-${lang}`);
      });

      await test.step('Sending: the archive on the wire against the study size, rate and time left', async () => {
        await expect(stats).toHaveAttribute('data-compression', 'sending', { timeout: 60_000 });
        await expect(stats).toContainText('×', { timeout: 10_000 });
        await expect(stats).toContainText(/\/s/, { timeout: 10_000 });
        await expect(job.getByTestId('upload-phase')).toHaveText(t('uploads.phase.uploading'));
        await screenshot(page, `uploads-compressed-sending-${lang}`);
      });

      await test.step('Ready: the study size and what was sent for it', async () => {
        await expect(job).toHaveAttribute('data-phase', 'ready', { timeout: 90_000 });
        await expect(job.getByTestId('upload-progress')).toHaveAttribute('data-value', '100');
        await expect(stats).toHaveAttribute('data-compression', 'done');
        await checkScreen(page, `uploads-compressed-ready-${lang}`);
      });
    });
  });
}
