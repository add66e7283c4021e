// A scanner export with a slice cut short: the inbox names the file and why, nothing is uploaded by
// itself, "wait" keeps it waiting, and "upload without it" asks for an explicit confirmation before
// the exam is created without that file. The flow runs in Spanish; each screen is checked in
// Spanish and in English.
import { mkdtempSync, renameSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { writeCbctExport } from '../fixtures/dicom/generate';
import { listExams } from '../support/e2e/service-calls';
import { expect, test } from '../support/e2e/app-fixtures';
import { addWatchFolder, checkScreenInBoth, onboard, texts, type Lang } from '../support/e2e/ui-steps';

const lang: Lang = 'es';
test.describe('in es', () => {
  test.use({ locale: 'es-ES' });
  // A flow in depth whose screens are each checked in two languages.
  test.setTimeout(180_000);

  test(`a study with a slice cut short waits in the inbox and goes only after confirming`, async ({
    page,
    app,
    emulator,
    watchDir,
  }) => {
    const t = texts(lang);
    const patientId = `INCOMPLETE-${lang}`;
    await page.goto(app.info.url);
    await onboard(page, t, emulator.info.keys.pro);
    await addWatchFolder(page, t, watchDir);

    const { ex, sliceName, panel } =
      await test.step('The export is written elsewhere, one slice cut in half, then moved in whole', async () => {
        // The export is written elsewhere, one slice cut in half, then moved in whole.
        const staging = mkdtempSync(join(tmpdir(), 'sb-e2e-staging-'));
        const ex = await writeCbctExport(join(staging, 'EXPORT_CUT'), {
          volumeSlices: 6,
          scoutSlices: 2,
          patientId,
          dicomdir: false,
        });
        const slice = ex.series[0]?.files[3]?.path as string;
        // Named relative to the study's folder (DICOM/PAT00001/STU00001), as the inbox shows it.
        const sliceName = relative(dirname(dirname(slice)), slice)
          .split(sep)
          .join('/');
        truncateSync(slice, Math.floor(statSync(slice).size / 2));
        renameSync(ex.root, join(watchDir, 'EXPORT_CUT'));
        rmSync(staging, { recursive: true, force: true });

        await page.getByRole('link', { name: t('nav.inbox') }).click();
        const detail = page.getByTestId('inbox-detail');
        const panel = detail.getByTestId('incomplete-files');
        await expect(panel).toBeVisible({ timeout: 30_000 });
        await expect(panel).toContainText(t('completeness.title_one', { count: 1 }));
        const row = panel.getByTestId('incomplete-list').getByRole('listitem');
        await expect(row).toHaveCount(1);
        await expect(row).toContainText(sliceName);
        await expect(row).toContainText(t('completeness.reason.cut_short'));
        await expect(row).toHaveAttribute('data-reason', 'cut_short');
        // The ordinary Upload is not offered while files are missing.
        await expect(detail.getByTestId('inbox-upload')).toBeDisabled();
        await checkScreenInBoth(page, 'inbox-incomplete');

        await panel.getByRole('button', { name: t('completeness.wait') }).click();
        await expect(panel.getByTestId('incomplete-waiting')).toHaveText(t('completeness.waiting'));
        // Nothing was sent.
        expect(
          (await listExams(emulator.info, emulator.info.keys.pro)).filter((e) => e.patient_id === patientId),
        ).toEqual([]);
        return { ex, sliceName, panel };
      });

    await test.step('Going on anyway takes a confirmation, which can be backed out of with the keyboard', async () => {
      // Going on anyway takes a confirmation, which can be backed out of with the keyboard.
      await panel.getByRole('button', { name: t('completeness.uploadAnyway_one', { count: 1 }) }).click();
      const dialog = page.getByRole('dialog', { name: t('completeness.confirmTitle_one', { count: 1 }) });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(sliceName);
      await checkScreenInBoth(page, 'inbox-incomplete-confirm');
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await panel.getByRole('button', { name: t('completeness.uploadAnyway_one', { count: 1 }) }).click();
      await dialog.getByRole('button', { name: t('completeness.confirmUpload_one', { count: 1 }) }).click();

      await expect(page.getByTestId('upload-queued')).toBeVisible();
      await page.getByTestId('see-uploads').click();
      const job = page.getByTestId('upload-job').first();
      await expect(job).toHaveAttribute('data-phase', 'ready', { timeout: 60_000 });
    });

    await test.step('One ready exam, without the slice that could not be read whole', async () => {
      // One ready exam, without the slice that could not be read whole.
      const exams = (await listExams(emulator.info, emulator.info.keys.pro)).filter((e) => e.patient_id === patientId);
      expect(exams).toHaveLength(1);
      expect(exams[0]).toMatchObject({ status: 'ready', file_count: ex.files - 1 });
    });
  });
});
