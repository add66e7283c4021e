// The exam workspace: an exam the app uploaded is found in Exams, opened,
// edited, shared by e-mail (the service's mail log has it), its viewer link copied, its PIN rotated
// (the old PIN is refused by the public page), its embed enabled and revoked, a report uploaded,
// viewed, signed and deleted, and the exam deleted. The share flow is done with the keyboard alone.
// The flow runs once, in Spanish; each of its screens is checked in Spanish and in English.
import { execFileSync } from 'node:child_process';
import { api } from '../support/emulator/emulator';
import { makePdf, seedExam, uploadThroughApp } from '../support/e2e/exam-seeds';
import { expect, test } from '../support/e2e/app-fixtures';
import { tabTo } from '../support/e2e/keyboard';
import { checkScreenInBoth, onboard, texts, type Lang } from '../support/e2e/ui-steps';

const lang: Lang = 'es';
const patient = 'NUÑEZ^JOSÉ IGNACIO';
const prefill = 'JOSÉ IGNACIO NUÑEZ';
const pid = '22222222-2';

test.describe('in es', () => {
  // The Overview step checks the thumbnail while it is still owed (the service makes it 30 s of its
  // time after the exam is ready): an emulator of its own whose clock runs 20 times slower keeps that
  // state for 10 minutes of test time, however slow the machine, until the test asks for it.
  test.use({ locale: 'es-ES', permissions: ['clipboard-read', 'clipboard-write'], emulatorOptions: { timeScale: 20 } });

  test('an uploaded exam is found, edited, shared, reported on and deleted', async ({
    page,
    app,
    emulator,
    watchDir,
  }) => {
    test.setTimeout(300_000);
    const t = texts(lang);
    const info = emulator.info;
    const key = info.keys.pro;
    const examId = await uploadThroughApp(app, key, watchDir, { name: patient, id: pid }, `EXPORT_${lang}`);
    // An older exam of the same patient, and a referring dentist for the share form.
    const olderId = await seedExam(info, key, {
      name: `Panorámica previa ${lang}`,
      patient_name: prefill,
      patient_id: pid,
    });
    const dentist = `Dra. Carolina Soto ${lang}`;
    const dentistEmail = `csoto.${lang}@clinica.example`;
    await api(info, key, 'POST', '/referrers', { name: dentist, email: dentistEmail, specialty: 'Endodoncia' });

    await page.goto(app.info.url);
    await expect(page.getByTestId('key-indicator')).toHaveAttribute('data-kind', 'live');

    await test.step('Uploads links to the exam', async () => {
      // Uploads links to the exam; the Exams screen finds it by patient ID.
      await page.getByRole('link', { name: t('nav.uploads') }).click();
      await expect(page.getByTestId('exam-link').first()).toHaveAttribute('href', new RegExp(`#/exams/${examId}$`));
      await page.getByRole('link', { name: t('exams.nav') }).click();
      await expect(page).toHaveURL(/#\/exams$/);
      await expect(page.getByTestId('exam-row').first()).toBeVisible();
      await checkScreenInBoth(page, 'exams-list');
      await page.getByLabel(t('exams.filterLabel')).fill(pid.replace('-', ''));
      const rows = page.getByTestId('exam-row');
      await expect(rows).toHaveCount(2);
      // Newest first: the one the app uploaded was created before the seeded one.
      await expect(rows.nth(1)).toHaveAttribute('data-exam-id', examId);
      await expect(rows.nth(1).getByTestId('exam-status')).toHaveText(t('exams.status.ready'));
      await expect(rows.nth(1).getByTestId('exam-type')).toHaveText(t('examType.cbct'));
      await checkScreenInBoth(page, 'exams-filtered');
      await rows.nth(1).click();
    });

    await test.step('Overview', async () => {
      // Overview: details, the thumbnail not generated yet, the patient's other exam as a link.
      await expect(page).toHaveURL(new RegExp(`#/exams/${examId}$`));
      await expect(page.getByTestId('fact-patient-name')).toHaveText(prefill);
      await expect(page.getByTestId('fact-patient-id')).toHaveText(pid);
      await expect(page.getByTestId('fact-status')).toHaveText(t('exams.status.ready'));
      await expect(page.getByTestId('exam-thumbnail')).toHaveAttribute('data-state', 'not-ready');
      await expect(page.getByTestId('exam-thumbnail')).toContainText(t('exams.overview.thumbnailNotReady'));
      await expect(page.getByTestId('patient-exam-link')).toHaveAttribute('href', new RegExp(`#/exams/${olderId}$`));
      await checkScreenInBoth(page, 'exam-overview-not-ready');
      await emulator.control('POST', `/exams/${examId}/thumbnail`);
      await page.reload();
      await expect(page.getByTestId('exam-thumbnail')).toHaveAttribute('data-state', 'ready');
      await expect(page.getByTestId('exam-thumbnail').locator('img')).toHaveAttribute(
        'src',
        /^data:image\/(png|jpeg);base64,/,
      );
      await checkScreenInBoth(page, 'exam-overview');
    });

    const { stored } = await test.step('Edit', async () => {
      // Edit: the type is read-only; a date the service refuses shows on its field; then a real change.
      await page.getByTestId('exam-tab-edit').click();
      await expect(page.getByTestId('edit-type')).toHaveAttribute('readonly', '');
      await expect(page.getByTestId('edit-subtype')).toHaveCount(0);
      await page.getByTestId('edit-birth-date').fill('2999-01-01');
      await page.getByTestId('edit-save').click();
      await expect(
        page.getByTestId('exam-edit').getByText(t('exams.edit.rejected', { detail: 'must not be in the future' })),
      ).toBeVisible();
      await checkScreenInBoth(page, 'exam-edit-rejected');
      const newName = 'Control de implante — José Núñez';
      await page.getByTestId('edit-birth-date').fill('1980-01-31');
      await page.getByTestId('edit-name').fill(newName);
      await page.getByTestId('edit-reason').fill('Evaluación de implante 3.6');
      await page.getByTestId('edit-save').click();
      await expect(page.getByTestId('edit-saved')).toBeVisible();
      await expect(page.getByTestId('exam-title')).toHaveText(newName);
      const stored = await api(info, key, 'GET', `/exams/${examId}`);
      expect(stored.json['name']).toBe(newName);
      expect(stored.json['reason']).toBe('Evaluación de implante 3.6');
      expect(stored.json['birth_date']).toBe('1980-01-31');
      await checkScreenInBoth(page, 'exam-edit');
      return { stored };
    });

    await test.step('Share, keyboard only', async () => {
      // Share, keyboard only: a referrer from the directory, a second address in cc, a message, the e-mail's language.
      await page.getByTestId('exam-tab-share').click();
      await expect(page.getByTestId('share-panel')).toBeVisible();
      await checkScreenInBoth(page, 'exam-share', { fullPage: true });
      await tabTo(page, page.getByTestId('share-referrer'));
      await page.keyboard.type(dentist);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('share-to')).toHaveValue(dentistEmail);
      await tabTo(page, page.getByTestId('share-to'));
      await page.keyboard.press('End');
      await page.keyboard.type(`, paciente.${lang}@correo.example`);
      await tabTo(page, page.getByTestId('share-cc'));
      await page.keyboard.type(`recepcion.${lang}@clinica.example, archivo.${lang}@clinica.example`);
      await tabTo(page, page.getByTestId('share-message'));
      await page.keyboard.type('Adjunto el examen de control.');
      await tabTo(page, page.getByTestId('share-locale'));
      await page.keyboard.press('ArrowDown');
      await expect(page.getByRole('option', { name: t('exams.share.locales.pt') })).toBeVisible();
      for (;;) {
        const selected = await page
          .getByRole('option', { name: t('exams.share.locales.pt') })
          .getAttribute('data-combobox-selected');
        if (selected !== null) break;
        await page.keyboard.press('ArrowDown');
      }
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('share-locale')).toHaveValue(t('exams.share.locales.pt'));
      await tabTo(page, page.getByTestId('share-send'));
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('share-result')).toHaveAttribute('data-sent', 'true');
      await checkScreenInBoth(page, 'exam-share-sent');
      const mail = await emulator.control<{
        mail: { to: string[]; cc: string[]; subject: string; body: string; exam_id?: string }[];
      }>('GET', `/mail?to=${encodeURIComponent(dentistEmail)}`);
      const sent = mail.mail.find((m) => m.exam_id === examId);
      expect(sent, 'the share e-mail in the service mail log').toBeDefined();
      expect(sent?.to).toEqual([dentistEmail, `paciente.${lang}@correo.example`]);
      expect(sent?.cc).toEqual([`recepcion.${lang}@clinica.example`, `archivo.${lang}@clinica.example`]);
      expect(sent?.body).toContain('Adjunto el examen de control.');
    });

    await test.step('The viewer link is copied as it is', async () => {
      // The viewer link is copied as it is; it opens as a normal link in browser mode.
      const viewerUrl = (await page.getByTestId('viewer-url').textContent()) ?? '';
      expect(viewerUrl).toBe(stored.json['viewer_url']);
      await page.getByTestId('viewer-url-copy').click();
      await expect(page.getByTestId('viewer-url-copy')).toHaveText(t('exams.share.copied'));
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(viewerUrl);
      await expect(page.getByTestId('viewer-open')).toHaveAttribute('href', viewerUrl);
      await expect(page.getByTestId('viewer-open')).toHaveAttribute('target', '_blank');
    });

    await test.step('The PIN', async () => {
      // The PIN: the public page opens with it; after Rotate the old one is refused.
      const oldPin = (await page.getByTestId('pin-value').textContent()) ?? '';
      const publicUrl = (await page.getByTestId('public-url').textContent()) ?? '';
      expect(oldPin).toMatch(/^\d{6}$/);
      await expect(page.getByTestId('public-qr').locator('svg')).toBeVisible();
      expect((await fetch(`${publicUrl}?pin=${oldPin}`)).status).toBe(200);
      // The patient's sheet: browser mode downloads the PDF, which carries the PIN and the page.
      const downloading = page.waitForEvent('download');
      await page.getByTestId('handout-print').click();
      const sheet = await (await downloading).path();
      const sheetText = execFileSync('pdftotext', [sheet, '-'], { encoding: 'utf8' });
      expect(sheetText).toContain(oldPin);
      expect(sheetText).toContain(publicUrl);
      expect(sheetText).toContain(prefill);
      await expect(page.getByTestId('handout-result')).toBeVisible();
      await checkScreenInBoth(page, 'exam-share-handout');
      await page.getByTestId('pin-rotate').click();
      await expect(page.getByTestId('pin-rotate-modal')).toContainText(t('exams.share.rotateBody'));
      await checkScreenInBoth(page, 'exam-share-rotate');
      await page.getByTestId('pin-rotate-modal-confirm').click();
      await expect(page.getByTestId('pin-rotated')).toBeVisible();
      const newPin = (await page.getByTestId('pin-value').textContent()) ?? '';
      expect(newPin).toMatch(/^\d{6}$/);
      expect(newPin).not.toBe(oldPin);
      expect((await fetch(`${publicUrl}?pin=${oldPin}`)).status).toBe(403);
      expect((await fetch(`${publicUrl}?pin=${newPin}`)).status).toBe(200);
    });

    await test.step('Embed', async () => {
      // Embed: enabled with a title, its code works; revoked, the same code stops working.
      await page.getByTestId('embed-title').fill(`Examen ${lang}`);
      await page.getByTestId('embed-show-year').click();
      await page.getByTestId('embed-enable').click();
      await expect(page.getByTestId('share-embed')).toHaveAttribute('data-enabled', 'true');
      const snippet = (await page.getByTestId('embed-snippet').textContent()) ?? '';
      const embedUrl = /src="([^"]+)"/.exec(snippet)?.[1] ?? '';
      expect(embedUrl).toMatch(/^http/);
      expect((await fetch(embedUrl)).status).toBe(200);
      await page.getByTestId('embed-snippet-copy').click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet);
      await checkScreenInBoth(page, 'exam-share-embed', { fullPage: true });
      await page.getByTestId('embed-revoke').click();
      await page.getByTestId('embed-revoke-modal-confirm').click();
      await expect(page.getByTestId('embed-revoked')).toBeVisible();
      expect((await fetch(embedUrl)).status).toBeGreaterThanOrEqual(400);
      await page.getByTestId('embed-enable').click();
      await expect(page.getByTestId('share-embed')).toHaveAttribute('data-enabled', 'true');
      const again = (await page.getByTestId('embed-snippet').textContent()) ?? '';
      expect(again).not.toBe(snippet);
    });

    await test.step('Report', async () => {
      // Report: a file that is not a PDF is refused here; a PDF is uploaded, viewed, signed, replaced, deleted.
      await page.getByTestId('exam-tab-report').click();
      await expect(page.getByTestId('report-panel')).toHaveAttribute('data-state', 'none');
      const input = page.getByTestId('report-drop').locator('input[type=file]');
      await input.setInputFiles({
        name: 'informe.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('this is not a PDF at all'),
      });
      await expect(page.getByTestId('report-problem')).toHaveAttribute('data-problem', 'notPdf');
      await checkScreenInBoth(page, 'exam-report-none');
      await input.setInputFiles({
        name: 'informe.pdf',
        mimeType: 'application/pdf',
        buffer: await makePdf('Informe radiologico', 2),
      });
      await expect(page.getByTestId('report-filename')).toHaveText('informe.pdf');
      await expect(page.getByTestId('report-state')).toHaveText(t('exams.report.unsigned'));
      await page.getByTestId('report-view').click();
      await expect(page.getByTestId('pdf-view')).toHaveAttribute('data-pages', '2');
      await expect(page.getByTestId('pdf-page')).toHaveText(t('pdf.page', { n: 1, total: 2 }));
      // The page is drawn: the canvas has dark pixels (text), not only white.
      await expect
        .poll(() =>
          page.getByTestId('pdf-canvas').evaluate((c: HTMLCanvasElement) => {
            const d = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? new Uint8ClampedArray();
            let dark = 0;
            for (let i = 0; i < d.length; i += 4) if ((d[i] ?? 255) < 100) dark++;
            return dark;
          }),
        )
        .toBeGreaterThan(50);
      await page.getByTestId('pdf-next').click();
      await expect(page.getByTestId('pdf-page')).toHaveText(t('pdf.page', { n: 2, total: 2 }));
      await checkScreenInBoth(page, 'exam-report-view');
      await page.getByTestId('report-sign').click();
      await expect(page.getByTestId('report-sign-modal')).toContainText(t('exams.report.signBody'));
      await page.getByTestId('report-sign-modal-confirm').click();
      await expect(page.getByTestId('report-state')).toHaveText(t('exams.report.signed'));
      const signatureId = (await page.getByTestId('signature-id').textContent()) ?? '';
      expect(signatureId).toMatch(/^sig_/);
      const verification = (await page.getByTestId('verification-url').getAttribute('href')) ?? '';
      expect((await fetch(verification)).status).toBe(200);
      await page.getByTestId('report-view').click();
      await checkScreenInBoth(page, 'exam-report-signed');
      await page
        .getByTestId('report-drop')
        .locator('input[type=file]')
        .setInputFiles({
          name: 'informe-v2.pdf',
          mimeType: 'application/pdf',
          buffer: await makePdf('Informe v2', 1),
        });
      await expect(page.getByTestId('report-replace-modal')).toContainText('informe-v2.pdf');
      await checkScreenInBoth(page, 'exam-report-replace');
      await page.getByTestId('report-replace-modal-confirm').click();
      await expect(page.getByTestId('report-filename')).toHaveText('informe-v2.pdf');
      await expect(page.getByTestId('report-state')).toHaveText(t('exams.report.unsigned'));
      await page.getByTestId('report-delete').click();
      await page.getByTestId('report-delete-modal-confirm').click();
      await expect(page.getByTestId('report-panel')).toHaveAttribute('data-state', 'none');
      expect((await api(info, key, 'GET', `/exams/${examId}/report`)).status).toBe(404);
    });

    await test.step('Delete', async () => {
      // Delete: the confirmation names the patient; the exam is gone from the service and the list.
      await page.getByTestId('exam-tab-overview').click();
      await page.getByTestId('exam-delete').click();
      await expect(page.getByTestId('exam-delete-modal')).toContainText(prefill);
      await checkScreenInBoth(page, 'exam-delete');
      await page.getByTestId('exam-delete-modal-confirm').click();
      await expect(page).toHaveURL(/#\/exams$/);
      expect((await api(info, key, 'GET', `/exams/${examId}`)).status).toBe(404);
      await expect(page.locator(`[data-testid="exam-row"][data-exam-id="${examId}"]`)).toHaveCount(0);
    });
  });
});

test.describe('in en', () => {
  test.use({ locale: 'en-US' });

  test('a sandbox key shows "not sent: test key" on share', async ({ page, app, emulator }) => {
    const t = texts('en');
    const key = emulator.info.keys.sandbox;
    const examId = await seedExam(emulator.info, key, {
      name: 'Sandbox',
      patient_name: 'PACIENTE DE PRUEBA',
    });
    await page.goto(app.info.url);
    await onboard(page, t, key);
    await page.evaluate((hash) => {
      window.location.hash = hash;
    }, `#/exams/${examId}/share`);
    await page.getByTestId('share-to').fill('doctor@clinica.example');
    await page.getByTestId('share-send').click();
    const result = page.getByTestId('share-result');
    await expect(result).toHaveAttribute('data-sent', 'false');
    await expect(result).toHaveAttribute('data-reason', 'test_mode_no_send');
    await expect(result).toContainText(t('exams.share.notSentTitle'));
    await expect(result).not.toContainText(t('exams.share.sent', { to: 'doctor@clinica.example' }));
    await checkScreenInBoth(page, 'exam-share-sandbox');
  });
});
