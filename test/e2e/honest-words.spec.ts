// Honest words on the screens staff glance at: the header's request meter says what its count is
// (calls left this hour, not "961/1000", which reads as calls used), and the connection check on a
// plain-http service says TLS is not used instead of "not tested, an earlier step failed", with
// its figures in the window's language ("569,2 Mbit/s" in Spanish).
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../support/e2e/app-fixtures';
import { seedExam } from '../support/e2e/exam-seeds';
import { dropCbctExport } from '../support/e2e/scanner-exports';
import { addWatchFolder, type Lang, onboard, screenshot, texts } from '../support/e2e/ui-steps';

for (const lang of ['es', 'en'] as Lang[]) {
  test.describe(`honest words (${lang})`, () => {
    test.use({ locale: lang === 'es' ? 'es-ES' : 'en-US' });

    test('the meter says calls left this hour; the check on http says TLS is not used', async ({
      page,
      app,
      emulator,
    }) => {
      const t = texts(lang);
      await page.goto(app.info.url);
      await onboard(page, t, emulator.info.keys.pro);
      const meter = page.getByTestId('rate-meter');
      const words = lang === 'es' ? /^quedan [\d.]+ de [\d.]+ esta hora$/ : /^[\d,]+ of [\d,]+ left this hour$/;
      await expect(meter.locator('p')).toHaveText(words);
      await screenshot(page, `header-meter-${lang}`);

      await page.getByRole('link', { name: t('nav.settings') }).click();
      await page.getByTestId('check-connection').click();
      await expect(page.getByTestId('check-verdict')).toContainText(t('netcheck.works'));
      const tls = page.getByTestId('check-step-tls');
      await expect(tls).toHaveAttribute('data-status', 'not_used');
      await expect(tls).toContainText(t('netcheck.status.not_used'));
      await expect(tls).toContainText(t('netcheck.notUsed'));
      await expect(tls).not.toContainText(t('netcheck.notChecked'));
      const speed = page.getByTestId('check-step-upload_speed');
      await expect(speed).toHaveAttribute('data-status', 'ok');
      await expect(speed).toContainText(lang === 'es' ? /\d+,\d Mbit\/s/ : /\d+\.\d Mbit\/s/);
      await page.getByTestId('check-steps').scrollIntoViewIfNeeded();
      await screenshot(page, `connection-check-http-${lang}`);
    });
  });
}

for (const lang of ['es', 'en'] as Lang[]) {
  test.describe(`the service down (${lang})`, () => {
    test.use({ locale: lang === 'es' ? 'es-ES' : 'en-US', throughLostAnswerProxy: true });

    test('the Inbox says the service cannot be reached, and why', async ({ page, app, emulator, lostAnswers }) => {
      const t = texts(lang);
      await page.goto(app.info.url);
      await onboard(page, t, emulator.info.keys.pro);
      await expect(page.getByTestId('service-unreachable')).toHaveCount(0);
      // The service goes away (its address now refuses connections); the next call finds out.
      const host = new URL(lostAnswers?.baseUrl ?? '').host;
      await lostAnswers?.stop();
      await page.getByRole('link', { name: t('nav.account') }).click();
      await page.getByRole('button', { name: t('common.refresh') }).click();
      await page.getByRole('link', { name: t('nav.inbox') }).click();
      const notice = page.getByTestId('service-unreachable');
      await expect(notice).toContainText(t('reach.title'));
      await expect(notice).toContainText(t('reach.waiting'));
      await expect(notice).toContainText(t('reach.problem.unreachable', { host }));
      await screenshot(page, `inbox-service-down-${lang}`);
    });
  });
}

for (const lang of ['es', 'en'] as Lang[]) {
  test.describe(`a copy of an uploaded study (${lang})`, () => {
    test.use({ locale: lang === 'es' ? 'es-ES' : 'en-US' });

    test('the Inbox says it was already uploaded as exam X, with a link to the exam', async ({
      page,
      app,
      emulator,
      watchDir,
    }) => {
      const t = texts(lang);
      await page.goto(app.info.url);
      await onboard(page, t, emulator.info.keys.pro);
      await addWatchFolder(page, t, watchDir);
      const first = await dropCbctExport(watchDir, 'ESTUDIO_1', { volumeSlices: 3, scoutSlices: 1 });
      await page.getByRole('link', { name: t('nav.inbox') }).click();
      const detail = page.getByTestId('inbox-detail');
      await expect(detail).toBeVisible({ timeout: 60_000 });
      await detail.getByRole('button', { name: t('inbox.upload') }).click();
      await page.getByTestId('see-uploads').click();
      const job = page.getByTestId('upload-job').first();
      await expect(job).toHaveAttribute('data-phase', 'ready', { timeout: 60_000 });

      // The same export, copied into the watched folder under another name.
      cpSync(first.root, join(watchDir, 'COPIA_ESTUDIO_1'), { recursive: true });
      await page.getByRole('link', { name: t('nav.inbox') }).click();
      const copy = page.getByTestId('skipped-copy');
      await expect(copy).toHaveCount(1, { timeout: 60_000 });
      await expect(copy).toContainText(join(watchDir, 'COPIA_ESTUDIO_1'));
      const examId = await copy.getAttribute('data-exam-id');
      expect(examId).toMatch(/^exm_/);
      await expect(copy.getByTestId('copy-exam-link')).toHaveText(t('copies.exam', { id: examId ?? '' }));
      await screenshot(page, `inbox-copy-of-uploaded-${lang}`);
      await copy.getByTestId('copy-exam-link').click();
      await expect(page).toHaveURL(new RegExp(`#/exams/${examId ?? ''}`));
    });
  });
}

test.describe('the embed is public', () => {
  test.use({ locale: 'es-ES' });

  test("its default title is the exam's type, never its name (which may carry the patient's)", async ({
    page,
    app,
    emulator,
  }) => {
    const t = texts('es');
    const examId = await seedExam(emulator.info, emulator.info.keys.pro, {
      name: 'CBCT Carolina Fuentes Ibáñez',
      patient_name: 'Carolina Fuentes Ibáñez',
      exam_type: 'cbct',
    });
    await page.goto(app.info.url);
    await onboard(page, t, emulator.info.keys.pro);
    await page.goto(`${app.info.url.split('#')[0]}#/exams/${examId}`);
    await page.getByTestId('exam-tab-share').click();
    const title = page.getByTestId('embed-title');
    await expect(title).toHaveValue(t('examType.cbct'));
    // Emptied, it is still not the exam's name: the embed goes out with the type as its title.
    await title.fill('');
    await page.getByTestId('embed-enable').click();
    const snippet = page.getByTestId('embed-snippet');
    await expect(snippet).toBeVisible();
    const src = /src="([^"]+)"/.exec((await snippet.textContent()) ?? '')?.[1] ?? '';
    const html = await (await fetch(src)).text();
    expect(html).toContain(`<title>${t('examType.cbct')}</title>`);
    // (What the service itself shows below the title is the service's choice.)
    expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]).not.toContain('Carolina');
  });
});
