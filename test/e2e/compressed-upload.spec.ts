// Settings → Uploads → Compression, then a compressed upload seen on the Uploads screen: the
// archive on the wire against the study's own size while the rest of the study is still being
// compressed ("still compressing: 60 %"), then the archive alone, until the exam is ready. The flow runs in Spanish; each screen is
// also seen in English (the passing phases as pictures taken right after the language switch).
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { writePhantomSeries } from '../support/data/phantom';
import { expect, test } from '../support/e2e/app-fixtures';
import type { Page } from '@playwright/test';
import {
  addWatchFolder,
  checkScreenInBoth,
  type Lang,
  onboard,
  screenshot,
  switchLanguage,
  texts,
} from '../support/e2e/ui-steps';

const lang: Lang = 'es';

/** A passing phase in both languages: its picture now, then in English, and back. */
async function screenshotInBoth(page: Page, name: string): Promise<void> {
  await screenshot(page, `${name}-es`);
  await switchLanguage(page, 'en');
  await screenshot(page, `${name}-en`);
  await switchLanguage(page, 'es');
}

test.describe('in es', () => {
  test.use({ locale: 'es-ES' });

  test('a compressed upload says what it compresses and what it sends', async ({ page, app, emulator, watchDir }) => {
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
      await checkScreenInBoth(page, 'settings-upload-compression');
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
    // "aún comprimiendo:" / "still compressing:", without the figure.
    const still = t('uploads.compression.stillCompressing', { percent: '' }).replace(/\s*%$/, '').trim();
    const stats = job.getByTestId('upload-stats');
    await test.step('Sending while compressing: the archive on the wire, and how far compressing got', async () => {
      await expect(stats).toHaveAttribute('data-compression', 'sending', { timeout: 60_000 });
      await expect(stats).toContainText(still, { timeout: 10_000 });
      await expect(job.getByTestId('upload-phase')).toHaveText(t('uploads.phase.uploading'));
      await screenshotInBoth(page, 'uploads-sending-while-compressing');
    });

    await test.step('Sending: the archive on the wire against the study size, rate and time left', async () => {
      await expect(stats).toHaveAttribute('data-compression', 'sending', { timeout: 60_000 });
      // Compressing is done: the line no longer mentions it.
      await expect(stats).not.toContainText(still, { timeout: 60_000 });
      await expect(stats).toContainText('×', { timeout: 10_000 });
      await expect(stats).toContainText(/\/s/, { timeout: 10_000 });
      await expect(job.getByTestId('upload-phase')).toHaveText(t('uploads.phase.uploading'));
      await screenshotInBoth(page, 'uploads-compressed-sending');
    });

    await test.step('Ready: the study size and what was sent for it', async () => {
      await expect(job).toHaveAttribute('data-phase', 'ready', { timeout: 90_000 });
      await expect(job.getByTestId('upload-progress')).toHaveAttribute('data-value', '100');
      await expect(stats).toHaveAttribute('data-compression', 'done');
      await checkScreenInBoth(page, 'uploads-compressed-ready');
    });
  });
});
