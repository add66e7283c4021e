// Extra takes, end to end in browser mode against the emulator (the flow in Spanish, each screen
// checked in Spanish and English): the panel
// of a CBCT exam adds a take from a generated scanner export (keyboard only), the take goes through
// the upload queue (Uploads shows it as an extra take of that exam), and the exam's extra_series
// grows on the service; the button explains why it is disabled for a radiograph and at the limit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { writeCbctExport } from '../fixtures/dicom/generate';
import { api, type EmulatorInfo } from '../support/emulator/emulator';
import { expect, test } from '../support/e2e/app-fixtures';
import { checkScreenInBoth, onboard, texts, type Lang } from '../support/e2e/ui-steps';

type Take = { index: number; label: string; status: string; file_count: number; storage_bytes: number };

/** A ready exam made straight on the service (one small file), as another computer would have uploaded it. */
async function readyExam(
  info: EmulatorInfo,
  key: string,
  name: string,
  examType: 'cbct' | 'radiografia',
): Promise<string> {
  const bytes = Buffer.from('not a real image, only bytes to store');
  const created = await api(info, key, 'POST', '/exams', {
    name,
    exam_type: examType,
    patient_name: 'Ana Pérez Soto',
    files: [{ name: 'main/IMG0001.dcm', size: bytes.length }],
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  const url = (created.json['upload_urls'] as { url: string }[])[0]?.url ?? '';
  const put = await fetch(url, { method: 'PUT', body: bytes });
  expect(put.status).toBeLessThan(300);
  const confirmed = await api(info, key, 'POST', `/exams/${String(created.json['id'])}/confirm`);
  expect(confirmed.status).toBe(200);
  return String(created.json['id']);
}

async function takesOf(info: EmulatorInfo, key: string, examId: string): Promise<Take[]> {
  const res = await api(info, key, 'GET', `/exams/${examId}`);
  expect(res.status).toBe(200);
  return (res.json['extra_series'] ?? []) as Take[];
}

/** Tabs from the top of the page until `testId` has the focus (keyboard users reach it the same way). */
async function tabTo(page: Page, testId: string, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((id) => document.activeElement?.getAttribute('data-testid') === id, testId)) return;
  }
  throw new Error(`${testId} not reached with Tab`);
}

test.describe('extra takes (es)', () => {
  const lang: Lang = 'es';
  test.use({ locale: 'es-CL' });

  test('a take added from a folder grows extra_series; the limit and radiographs disable the button', async ({
    page,
    app,
    emulator,
  }) => {
    test.setTimeout(180_000);
    const t = texts(lang);
    const key = emulator.info.keys.pro;
    const examName = `Takes ${lang} — Núñez ${Date.now()}`;
    const examId = await readyExam(emulator.info, key, examName, 'cbct');
    const staging = mkdtempSync(join(tmpdir(), 'sb-e2e-take-'));
    try {
      const first = await writeCbctExport(join(staging, 'SECOND_SCAN'), { volumeSlices: 6, scoutSlices: 2 });
      const second = await writeCbctExport(join(staging, 'THIRD_SCAN'), { volumeSlices: 4, scoutSlices: 1 });

      await page.goto(app.info.url);
      await onboard(page, t, key);
      await page.goto(`${app.info.url}#/exams/${examId}/takes`);
      const panel = page.getByTestId('takes-panel');
      await expect(panel).toBeVisible();
      await expect(page.getByTestId('takes-exam')).toContainText(examName);
      await expect(page.getByTestId('takes-empty')).toBeVisible();
      await checkScreenInBoth(page, 'takes-empty');

      // Keyboard only: reach the button, open the form, write the label and the folder, send.
      await page.locator('body').focus();
      await tabTo(page, 'take-add');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('take-form')).toBeVisible();
      await expect(page.getByTestId('take-label')).toBeFocused();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('Segundo escaneo');
      await tabTo(page, 'take-path');
      await page.keyboard.type(first.root);
      await checkScreenInBoth(page, 'takes-form');
      await page.keyboard.press('Enter');

      await expect(page.getByTestId('takes-sending')).toBeVisible();
      await checkScreenInBoth(page, 'takes-sending');

      // The Uploads screen names it as a take of this exam and follows it to the end.
      await page.getByTestId('takes-open-uploads').click();
      const job = page
        .getByTestId('upload-job')
        .filter({ hasText: t('takes.uploadLabel', { label: 'Segundo escaneo', exam: examName }) });
      await expect(job).toBeVisible();
      await expect(job).toHaveAttribute('data-phase', 'ready', { timeout: 60_000 });
      await expect(job.getByTestId('upload-stats')).toContainText(
        t('uploads.files', { done: first.files, total: first.files }),
      );
      await checkScreenInBoth(page, 'takes-uploads');

      const afterFirst = await takesOf(emulator.info, key, examId);
      expect(afterFirst).toHaveLength(1);
      expect(afterFirst[0]).toMatchObject({
        index: 1,
        label: 'Segundo escaneo',
        status: 'ready',
        file_count: first.files,
        storage_bytes: first.bytes,
      });

      // Back on the panel: the take is listed; a second one reaches the limit.
      await page.goto(`${app.info.url}#/exams/${examId}/takes`);
      await expect(page.getByTestId('take-row')).toHaveCount(1);
      await expect(page.getByTestId('take-row').first()).toHaveAttribute('data-status', 'ready');
      await page.getByTestId('take-add').click();
      await page.getByTestId('take-label').fill('Tercer escaneo');
      await page.getByTestId('take-path').fill(second.root);
      await page.getByTestId('take-submit').click();
      // While the second take is being sent, no third can be started.
      await expect(page.getByTestId('take-add')).toBeDisabled();
      await expect
        .poll(async () => (await takesOf(emulator.info, key, examId)).filter((x) => x.status === 'ready').length, {
          timeout: 60_000,
        })
        .toBe(2);
      await expect(page.getByTestId('take-row')).toHaveCount(2, { timeout: 15_000 });
      const add = page.getByTestId('take-add');
      await expect(add).toBeDisabled();
      const reason = page.getByTestId('take-add-reason');
      await expect(reason).toHaveAttribute('data-reason', 'limit_reached');
      await expect(reason).toHaveText(t('takes.blocked.limit_reached', { max: 2 }));
      await expect(add).toHaveAttribute('aria-describedby', (await reason.getAttribute('id')) ?? 'missing');
      await checkScreenInBoth(page, 'takes-limit');
      const final = await takesOf(emulator.info, key, examId);
      expect(final.map((x) => [x.index, x.label, x.status, x.file_count, x.storage_bytes])).toEqual([
        [1, 'Segundo escaneo', 'ready', first.files, first.bytes],
        [2, 'Tercer escaneo', 'ready', second.files, second.bytes],
      ]);

      // A radiograph has no extra takes: the button says so.
      const radiographId = await readyExam(emulator.info, key, `Radiograph ${lang} ${Date.now()}`, 'radiografia');
      await page.goto(`${app.info.url}#/exams/${radiographId}/takes`);
      await expect(page.getByTestId('take-add')).toBeDisabled();
      await expect(page.getByTestId('take-add-reason')).toHaveAttribute('data-reason', 'not_for_type');
      await expect(page.getByTestId('take-add-reason')).toHaveText(
        t('takes.blocked.not_for_type', { type: t('examType.radiografia') }),
      );
      await checkScreenInBoth(page, 'takes-radiograph');
      expect(await takesOf(emulator.info, key, radiographId)).toEqual([]);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  });
});
