// Informed consent at the front desk, in browser mode against the emulator: the operator starts the
// consent, a second page (the patient display, opened with its one-time token) reads the PDF to the
// end and signs, and the operator sees it signed and verified; e-mail signing completes through the
// emulator's control API. The patient page's token reaches nothing but its own session.
// Signing on the display runs in depth in Spanish, the e-mailed link in English; the operator's
// screens are checked in both languages, the patient display (which shows the language the operator
// chose for the patient) in the language of its flow, and the English one also walks the form far
// enough to show its checks.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { methods, patientMethodNames } from '../../preload/contract';
import { api } from '../support/emulator/emulator';
import type { EmulatorInfo } from '../support/emulator/emulator';
import { expect, test } from '../support/e2e/app-fixtures';
import { checkScreen, checkScreenInBoth, texts } from '../support/e2e/ui-steps';
import type { Lang } from '../support/e2e/ui-steps';

async function createExam(info: EmulatorInfo, key: string, patientName: string): Promise<string> {
  const res = await api(info, key, 'POST', '/exams', {
    name: `Consent ${patientName} ${Date.now()}`,
    patient_name: patientName,
    files: [{ name: 'a.dcm', size: 1024 }],
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json['id'] as string;
}

async function signedPdfHash(info: EmulatorInfo, key: string, examId: string): Promise<string> {
  const res = await fetch(`${info.base_url}/exams/${examId}/consent/pdf?type=signed`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/pdf');
  return createHash('sha256')
    .update(Buffer.from(await res.arrayBuffer()))
    .digest('hex');
}

type Texts = ReturnType<typeof texts>;

/** The patient display while the document is read: checked at 1280×800 and on a portrait tablet. */
async function checkReadingScreens(patient: Page, lang: Lang): Promise<void> {
  await checkScreen(patient, `consent-patient-reading-${lang}`);
  await patient.setViewportSize({ width: 800, height: 1280 });
  await checkScreen(patient, `consent-patient-reading-portrait-${lang}`);
  await patient.setViewportSize({ width: 1280, height: 800 });
}

/** The patient scrolls the document to its end with the mouse wheel, which opens the form. */
async function readToEnd(patient: Page, t: Texts): Promise<void> {
  await patient.getByTestId('pdf-view').hover();
  for (let i = 0; i < 30 && (await patient.getByLabel(t('patient.name')).isDisabled()); i++)
    await patient.mouse.wheel(0, 600);
}

/** A dot in the pad, the terms accepted, Sign: refused as too short a signature. */
async function signWithADot(patient: Page, t: Texts, lang: Lang): Promise<void> {
  const padBox = await patient.getByTestId('signature-pad').boundingBox();
  if (!padBox) throw new Error('no pad');
  await patient.mouse.click(padBox.x + padBox.width / 2, padBox.y + padBox.height / 2);
  await patient.getByLabel(t('patient.accept')).check();
  await patient.getByRole('button', { name: t('patient.submit'), exact: true }).click();
  await expect(patient.getByTestId('patient-problem')).toHaveText(t('patient.signatureTooShort'));
  await checkScreen(patient, `consent-patient-signature-too-short-${lang}`);
}

/** Draws a signature-like path with the mouse inside the pad. */
async function drawSignature(page: Page): Promise<void> {
  const box = await page.getByTestId('signature-pad').boundingBox();
  if (!box) throw new Error('no signature pad');
  const x0 = box.x + 30;
  const y0 = box.y + box.height / 2;
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  for (let i = 1; i <= 40; i++) await page.mouse.move(x0 + i * 7, y0 + Math.sin(i / 3) * 40, { steps: 2 });
  await page.mouse.up();
}

async function rpcWithToken(
  port: number,
  token: string,
  method: string,
  args: unknown = {},
): Promise<{ status: number; code: string | null }> {
  const res = await fetch(`http://127.0.0.1:${port}/rpc/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(args),
  });
  const body = (await res.json()) as { error?: { code: string } };
  return { status: res.status, code: body.error?.code ?? null };
}

test.describe('consent (es)', () => {
  const lang: Lang = 'es';
  test.use({ locale: 'es-ES' });
  // A flow in depth whose screens are each checked in two languages.
  test.setTimeout(180_000);

  test('signed on the patient display, verified, second start says already signed', async ({
    page,
    app,
    emulator,
    context,
  }) => {
    const t = texts(lang);
    const key = emulator.info.keys.pro;
    const examId = await createExam(emulator.info, key, 'María José Muñoz');
    await app.rpc('keys:save', { key });
    await app.rpc('settings:update', { language: lang });

    await page.goto(`${app.info.url}#/exams/${examId}/consent`);
    await expect(page.getByRole('heading', { name: t('consent.title') })).toBeVisible();
    await expect(page.getByTestId('consent-status')).toHaveAttribute('data-status', 'none');
    await checkScreenInBoth(page, 'consent-operator-none');
    await page.getByRole('button', { name: t('consent.start') }).click();
    await expect(page.getByTestId('consent-status')).toHaveAttribute('data-status', 'pending');
    await expect(page.getByLabel(t('consent.display.signer'))).toHaveValue('María José Muñoz');
    await page.getByRole('button', { name: t('consent.display.open') }).click();
    const link = page.getByTestId('patient-page-link');
    await expect(link).toBeVisible();
    await expect(page.getByTestId('consent-session')).toHaveAttribute('data-phase', /waiting|reading/);
    await checkScreenInBoth(page, 'consent-operator-pending');
    const patientUrl = (await link.getAttribute('href')) ?? '';
    const patientToken = new URL(patientUrl).searchParams.get('patient') ?? '';
    expect(patientToken.length).toBeGreaterThan(20);

    await test.step("The patient token reaches its own session's methods and nothing else, not even the event stream", async () => {
      // The patient token reaches its own session's methods and nothing else, not even the event stream.
      for (const name of Object.keys(methods).filter((m) => !(patientMethodNames as readonly string[]).includes(m))) {
        expect(await rpcWithToken(app.info.port, patientToken, name), name).toEqual({
          status: 403,
          code: 'forbidden_method',
        });
      }
      expect((await rpcWithToken(app.info.port, patientToken, 'patient:session')).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${app.info.port}/events?token=${patientToken}`)).status).toBe(401);
      // It cannot reach another session by naming it: the bridge binds every call to its own.
      expect((await rpcWithToken(app.info.port, patientToken, 'patient:pdf', { session_id: 'cs_other' })).status).toBe(
        200,
      );
    });

    const patient = await test.step('The patient display, in a second page', async () => {
      // The patient display, in a second page.
      const patient = await context.newPage();
      await patient.goto(patientUrl);
      await patient.bringToFront();
      await expect(patient.getByRole('heading', { name: t('patient.title') })).toBeVisible();
      const pdf = patient.getByTestId('pdf-view');
      await expect(pdf).toHaveAttribute('data-state', 'ready');
      await expect(patient.getByLabel(t('patient.name'))).toBeDisabled();
      await expect(page.getByTestId('consent-session')).toHaveAttribute('data-phase', 'reading');
      await checkReadingScreens(patient, lang);
      return patient;
    });

    await test.step('Scrolled to the end with the mouse wheel', async () => {
      // Scrolled to the end with the mouse wheel: the form opens, the operator sees "signing".
      await readToEnd(patient, t);
      await expect(patient.getByLabel(t('patient.name'))).toBeEnabled();
      await expect(patient.getByLabel(t('patient.name'))).toHaveValue('María José Muñoz');
      await expect(page.getByTestId('consent-session')).toHaveAttribute('data-phase', 'signing');
    });

    await test.step('RUT', async () => {
      // RUT: missing hyphen, wrong check digit, then a valid one, formatted as typed.
      const rut = patient.getByTestId('patient-document');
      await rut.pressSequentially('12345678');
      await expect(rut).toHaveValue('12.345.678');
      await rut.blur();
      await expect(patient.getByText(t('patient.rut_missing_hyphen'))).toBeVisible();
      await rut.fill('');
      await rut.pressSequentially('12345678-9');
      await expect(rut).toHaveValue('12.345.678-9');
      await expect(patient.getByText(t('patient.rut_invalid_rut'))).toBeVisible();
      await checkScreen(patient, `consent-patient-rut-invalid-${lang}`);
      await rut.fill('');
      await rut.pressSequentially('12345678-5');
      await expect(rut).toHaveValue('12.345.678-5');
      await expect(patient.getByText(t('patient.rut_invalid_rut'))).toHaveCount(0);
      await patient.getByLabel(t('patient.birthDate')).fill('1980-01-31');
    });

    await test.step('A dot is not a signature', async () => {
      // A dot is not a signature.
      await signWithADot(patient, t, lang);
      await expect(page.getByTestId('consent-status')).toHaveAttribute('data-status', 'pending');
    });

    await test.step('Cleared, signed for real, accepted', async () => {
      // Cleared, signed for real, accepted.
      await patient.getByRole('button', { name: t('patient.clear') }).click();
      await drawSignature(patient);
      await checkScreen(patient, `consent-patient-signed-form-${lang}`);
      await patient.getByRole('button', { name: t('patient.submit'), exact: true }).click();
      await expect(patient.getByTestId('patient-thanks')).toBeVisible();
      await checkScreen(patient, `consent-patient-thanks-${lang}`);
    });

    await test.step("The operator's page turns signed and verified by itself", async () => {
      // The operator's page turns signed and verified by itself.
      await expect(page.getByTestId('consent-status')).toHaveAttribute('data-status', 'signed');
      await expect(page.getByTestId('consent-verified')).toHaveText(t('consent.verified'));
      const shown = (await page.getByTestId('consent-service-hash').textContent()) ?? '';
      expect(await signedPdfHash(emulator.info, key, examId)).toBe(shown);
      await expect(page.getByTestId('consent-saved-to')).toBeVisible();
      const folder = join(app.dataDir, 'consent');
      const files = readdirSync(folder).filter((f) => f.endsWith('-signed.pdf'));
      expect(files).toEqual([`consent-${examId}-signed.pdf`]);
      expect(statSync(join(folder, files[0] ?? '')).mode & 0o777).toBe(0o600);
      expect(
        createHash('sha256')
          .update(readFileSync(join(folder, files[0] ?? '')))
          .digest('hex'),
      ).toBe(shown);
      // Two pages share the browser: the one in front draws (pdf.js paints on animation frames,
      // which Chromium holds back for a page behind another), as with two windows on one screen.
      await page.bringToFront();
      await page.getByRole('button', { name: t('consent.viewSigned') }).click();
      await expect(page.getByRole('region', { name: t('consent.signedDocument') })).toHaveAttribute(
        'data-state',
        'ready',
      );
      await checkScreenInBoth(page, 'consent-operator-signed');
    });

    await test.step('The session ended with the signature', async () => {
      // The session ended with the signature: its token is dead, the display goes idle by itself.
      expect(await rpcWithToken(app.info.port, patientToken, 'patient:session')).toEqual({
        status: 401,
        code: 'bad_token',
      });
      await expect(patient.getByTestId('patient-idle')).toBeVisible({ timeout: 20_000 });
      await checkScreen(patient, `consent-patient-idle-${lang}`);
    });

    await test.step('A second start', async () => {
      // A second start: "already signed", in plain words, not an error.
      await page.getByRole('button', { name: t('consent.startAgain') }).click();
      await expect(page.getByTestId('consent-already-signed')).toContainText(t('consent.alreadySignedTitle'));
      await expect(page.locator('[data-error-code]')).toHaveCount(0);
      await checkScreenInBoth(page, 'consent-operator-already-signed');
      await patient.close();
    });
  });
});

test.describe('consent (en)', () => {
  const lang: Lang = 'en';
  test.use({ locale: 'en-US' });
  // A flow in depth whose screens are each checked in two languages.
  test.setTimeout(180_000);

  test('signed through the e-mailed link: QR on both screens, turns signed without reload', async ({
    page,
    app,
    emulator,
    context,
  }) => {
    const t = texts(lang);
    const key = emulator.info.keys.sandbox;
    const examId = await createExam(emulator.info, key, 'Pedro Pérez');
    await app.rpc('keys:save', { key });
    await app.rpc('settings:update', { language: lang });

    // Settings: the signed copies go to a folder the clinic chose.
    const copies = join(app.home, 'signed-copies');
    await page.goto(`${app.info.url}#/settings`);
    const section = page.getByRole('region', { name: t('consentSettings.title') });
    await expect(section.getByTestId('settings-consent-country')).toHaveValue('CL');
    await section.getByLabel(t('consentSettings.folder')).fill(copies);
    await section.getByRole('button', { name: t('common.save') }).click();
    await expect(section.getByText(t('common.saved'))).toBeVisible();
    await section.scrollIntoViewIfNeeded();
    await checkScreenInBoth(page, 'consent-settings');
    expect((await app.rpc<{ consent: { copies_folder: string | null } }>('settings:get')).consent.copies_folder).toBe(
      copies,
    );

    await page.goto(`${app.info.url}#/exams/${examId}/consent`);
    await page.getByRole('button', { name: t('consent.start') }).click();
    await expect(page.getByTestId('consent-status')).toHaveAttribute('data-status', 'pending');
    await page.getByRole('button', { name: t('consent.display.open') }).click();
    const patient = await context.newPage();
    await patient.goto((await page.getByTestId('patient-page-link').getAttribute('href')) ?? '');
    await patient.bringToFront();
    await expect(patient.getByTestId('pdf-view')).toHaveAttribute('data-state', 'ready');
    await expect(patient.getByRole('heading', { name: t('patient.title') })).toBeVisible();
    await checkReadingScreens(patient, lang);
    // The patient reads to the end and starts the form: its checks speak the patient's language.
    await readToEnd(patient, t);
    const rut = patient.getByTestId('patient-document');
    await rut.pressSequentially('12345678-9');
    await rut.blur();
    await expect(patient.getByText(t('patient.rut_invalid_rut'))).toBeVisible();
    await checkScreen(patient, `consent-patient-rut-invalid-${lang}`);
    await rut.fill('');
    await rut.pressSequentially('12345678-5');
    await expect(patient.getByText(t('patient.rut_invalid_rut'))).toHaveCount(0);
    await signWithADot(patient, t, lang);

    await page.getByLabel(t('consent.email.to')).fill('pedro@example.com');
    await expect(page.getByLabel(t('consent.email.patient'))).toHaveValue('Pedro Pérez');
    await page.getByRole('button', { name: t('consent.email.send') }).click();
    await expect(page.getByTestId('consent-email-sent')).toContainText(t('consent.email.testKey'));
    await expect(page.getByTestId('consent-qr')).toBeVisible();
    expect(await page.getByTestId('consent-sign-url').textContent()).toMatch(/\/consent\/sign\//);
    await expect(patient.getByTestId('patient-qr')).toBeVisible();
    await checkScreenInBoth(page, 'consent-operator-email', { fullPage: true });
    await checkScreen(patient, `consent-patient-qr-${lang}`);

    await emulator.control('POST', `/consent/${examId}/sign-remote`, { signer_name: 'Pedro Pérez' });
    await expect(page.getByTestId('consent-status')).toHaveAttribute('data-status', 'signed', { timeout: 30_000 });
    await expect(page.getByTestId('consent-status')).toContainText(t('consent.method.email'));
    await expect(page.getByTestId('consent-verified')).toBeVisible();
    const shown = (await page.getByTestId('consent-service-hash').textContent()) ?? '';
    expect(await signedPdfHash(emulator.info, key, examId)).toBe(shown);
    const copy = join(copies, `consent-${examId}-signed.pdf`);
    await expect(page.getByTestId('consent-saved-to')).toContainText(copy);
    expect(statSync(copy).mode & 0o777).toBe(0o600);
    expect(createHash('sha256').update(readFileSync(copy)).digest('hex')).toBe(shown);
    // Nothing left to sign on the patient display.
    await expect(patient.getByTestId('patient-idle')).toBeVisible();
    await checkScreen(patient, `consent-patient-idle-${lang}`);
    await patient.close();
  });
});
