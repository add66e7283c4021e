// A 5000-file study in the queue: the window stays smooth (progress is pushed in batches, nothing
// is rendered per file), with no freeze while the upload runs.
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCtSeries } from '../fixtures/dicom/generate';
import { expect, test } from '../support/e2e/app-fixtures';
import { addWatchFolder, onboard, screenshot, texts } from '../support/e2e/ui-steps';

test('a 5000-file study uploads without stalling the window', async ({ page, app, emulator, watchDir }) => {
  test.setTimeout(150_000);
  const t = texts('en');
  await page.goto(app.info.url);
  await onboard(page, t, emulator.info.keys.pro);
  // One PUT per file (the hardest case for progress events), slowed so the upload outlasts the measurement.
  await page.getByRole('link', { name: t('nav.settings') }).click();
  await page.getByTestId('settings-upload-mode').selectOption('files');
  await page.getByTestId('settings-bandwidth').fill('1');
  await page.getByTestId('settings-upload-save').click();
  await expect(page.getByText(t('common.saved')).first()).toBeVisible();
  await addWatchFolder(page, t, watchDir);

  const staging = mkdtempSync(join(tmpdir(), 'sb-e2e-large-'));
  try {
    await writeCtSeries(join(staging, 'CBCT_5000'), {
      slices: 5000,
      rows: 16,
      cols: 16,
      patientName: 'PEÑA^MARÍA JOSÉ',
      charset: 'latin1',
      patientId: 'X5000',
      birthDate: '19750505',
      studyDate: '20260302',
      studyDescription: 'CBCT completo',
      seriesDescription: 'Volumen',
    });
    renameSync(join(staging, 'CBCT_5000'), join(watchDir, 'CBCT_5000'));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }

  await page.getByRole('link', { name: t('nav.inbox') }).click();
  const detail = page.getByTestId('inbox-detail');
  await expect(detail).toBeVisible({ timeout: 60_000 });
  await expect(detail.getByTestId('series-summary')).toContainText('5000');
  await expect(detail.getByLabel(t('inbox.fields.patientName'))).toHaveValue('MARÍA JOSÉ PEÑA');
  await detail.getByRole('button', { name: t('inbox.upload') }).click();
  await page.getByTestId('see-uploads').click();
  const job = page.getByTestId('upload-job').first();
  await expect(job).toHaveAttribute('data-phase', 'uploading', { timeout: 30_000 });

  const { observed } = await test.step('Watch the page for 5 s', async () => {
    // Watch the page for 5 s: long main-thread tasks, and how often the progress bar changes.
    const observed = await page.evaluate(async () => {
      const longTasks: number[] = [];
      const po = new PerformanceObserver((list) => list.getEntries().forEach((e) => longTasks.push(e.duration)));
      po.observe({ type: 'longtask', buffered: false });
      const bar = document.querySelector('[data-testid="upload-progress"]');
      const values: string[] = [];
      const mo = new MutationObserver(() => values.push(bar?.getAttribute('data-value') ?? ''));
      if (bar) mo.observe(bar, { attributes: true, attributeFilter: ['data-value'] });
      const start = performance.now();
      let frames = 0;
      await new Promise<void>((resolve) => {
        const tick = (): void => {
          frames += 1;
          if (performance.now() - start < 5000) requestAnimationFrame(tick);
          else resolve();
        };
        requestAnimationFrame(tick);
      });
      po.disconnect();
      mo.disconnect();
      return {
        longTasks,
        updates: values.length,
        frames,
        seconds: (performance.now() - start) / 1000,
        elements: document.querySelectorAll('*').length,
      };
    });
    await screenshot(page, 'uploads-5000-files-en');
    test.info().annotations.push({ type: 'measured', description: JSON.stringify(observed) });
    return { observed };
  });

  await test.step('Progress is batched by the core', async () => {
    // Progress is batched by the core: a handful of repaints a second, not one per file.
    expect(observed.updates / observed.seconds).toBeLessThanOrEqual(8);
    // The page stays small while 5000 files are in flight (nothing is rendered per file).
    expect(observed.elements).toBeLessThan(1500);
    // No freeze a person would notice. Long tasks also come from a busy machine (the core, the
    // emulator and the browser share its cores here), so the bound is generous; the figures are
    // recorded in the test's annotations.
    expect(Math.max(0, ...observed.longTasks), 'longest main-thread task (ms)').toBeLessThan(500);
  });

  await test.step('The measurement covered a running upload', async () => {
    // The measurement covered a running upload; no need to send all of it: cancelling ends the job.
    await expect(job).toHaveAttribute('data-phase', 'uploading');
    expect(observed.updates).toBeGreaterThan(3);
    await job.getByTestId('upload-cancel').click();
    await expect(job).toHaveAttribute('data-phase', 'cancelled', { timeout: 30_000 });
  });
});
