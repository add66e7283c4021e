import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { App } from '../core/app';
import { badRequest, conflict, escapeHtml, notFound, parseJson, readBody, sendBytes, sendHtml } from '../core/http';
import { newId, randomToken } from '../core/ids';
import type { Consent, Exam } from '../core/state';
import { email, isoDate, objectBody, parseWith } from '../core/validate';
import { decodeStrictBase64 } from '../documents/base64';
import { isReadablePng, renderConsentPdf, type ConsentSigner } from '../documents/consent-pdf';
import { CONSENT_LOCALES, wording } from '../documents/consent-text';
import { accountOf, callerExam, liveExam } from '../documents/exam-access';
import { readObject, writeObject } from '../documents/document-objects';
import { normalizeRut } from '../documents/rut';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MAX_SIGNATURE_BYTES = 2 * 1024 * 1024;

const countryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'expected an ISO 3166-1 alpha-2 code')
  .transform((c) => c.toUpperCase());
const initSchema = z.strictObject({
  country_code: countryCode.optional(),
  locale: z.enum(CONSENT_LOCALES).optional(),
});
const pastDate = isoDate.refine((s) => s <= new Date().toISOString().slice(0, 10), 'must not be in the future');
const inPersonSchema = z.strictObject({
  signer_name: z.string().trim().min(1).max(200),
  signer_rut: z.string().trim().min(1).max(50),
  patient_birth_date: pastDate.nullable().optional(),
  signature_image: z.string().min(1),
  accepted: z.literal(true, { message: 'the patient must accept the consent (accepted: true)' }),
});
const emailSchema = z.strictObject({
  to: email,
  patient_name: z.string().trim().min(1).max(200).optional(),
});
const remoteSchema = z.strictObject({ signer_name: z.string().trim().min(1).max(200) });

/** The consent as the API shows it (CHOICES.md, "Consent"). */
function view(c: Consent): Record<string, unknown> {
  return {
    status: c.status,
    signing_method: c.signing_method,
    signed_at: c.signed_at,
    hash: c.hash,
    country_code: c.country_code,
    locale: c.locale,
    signer_name: c.signer_name,
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

/** Informed consent (API-v1.md §2.6, §3.2, §4.3): in-person and e-mail signing, signed PDF and its hash. */
export function register(app: App): void {
  const newConsent = (countryCode = 'CL', locale = 'es'): Consent => {
    const now = app.clock.nowIso();
    return {
      id: newId('cns_'),
      status: 'pending',
      signing_method: null,
      signed_at: null,
      hash: null,
      country_code: countryCode,
      locale,
      signer_name: null,
      signer_rut: null,
      patient_birth_date: null,
      email_to: null,
      patient_name: null,
      sign_token: null,
      signed_pdf: null,
      created_at: now,
      updated_at: now,
    };
  };

  const document = (exam: Exam, consent: Consent | null, signer: ConsentSigner | null): Promise<Buffer> =>
    renderConsentPdf({
      locale: consent?.locale ?? 'es',
      countryCode: consent?.country_code ?? 'CL',
      clinicName: accountOf(app, exam)?.clinic_name ?? '',
      examId: exam.id,
      examName: exam.name,
      examType: exam.exam_type,
      patientName: consent?.patient_name ?? exam.patient_name,
      patientBirthDate: consent?.patient_birth_date ?? exam.birth_date,
      signer,
    });

  /** Generates and stores the signed PDF, then marks the consent signed; hash covers exactly the stored bytes. */
  const sign = async (exam: Exam, consent: Consent, signer: ConsentSigner, birthDate: string | null): Promise<void> => {
    const pdf = await document(
      exam,
      { ...consent, patient_birth_date: birthDate ?? consent.patient_birth_date },
      signer,
    );
    // Another request may have signed or re-initialized it while the PDF was being rendered.
    if (consent.status !== 'pending' || exam.consent !== consent)
      throw conflict('The consent changed while signing; it is already signed or was re-initialized');
    const key = `${exam.id}/consent-signed.pdf`;
    writeObject(app, key, pdf);
    consent.status = 'signed';
    consent.signing_method = signer.method;
    consent.signed_at = signer.signedAt;
    consent.signer_name = signer.name;
    consent.signer_rut = signer.document;
    consent.patient_birth_date = birthDate ?? consent.patient_birth_date;
    consent.signed_pdf = key;
    consent.hash = createHash('sha256').update(pdf).digest('hex');
    consent.updated_at = app.clock.nowIso();
    app.events.notify(
      exam.account_id,
      {
        type: 'consent_signed',
        title: 'Consent signed',
        body: `The informed consent for exam "${exam.name}" was signed (${signer.method === 'email' ? 'e-mail link' : 'in person'}).`,
        exam_id: exam.id,
      },
      exam.sandbox,
    );
    app.events.activity(
      exam.account_id,
      'consent.signed',
      'exam',
      exam.id,
      { signing_method: signer.method, hash: consent.hash },
      exam.sandbox,
    );
  };

  const pendingOrConflict = (exam: Exam): Consent => {
    const c = exam.consent;
    if (!c) throw conflict('No consent has been initialized for this exam (POST …/consent first)');
    if (c.status === 'signed') throw conflict('The consent is already signed');
    return c;
  };

  app.api.add('GET', '/exams/:id/consent', { scope: 'exams:read' }, (ctx) => {
    const exam = callerExam(app, ctx);
    return { body: exam.consent ? view(exam.consent) : { consent: null } };
  });

  app.api.add('POST', '/exams/:id/consent', { scope: 'exams:write' }, (ctx) => {
    const exam = callerExam(app, ctx);
    const body = parseWith(initSchema, objectBody(ctx.body));
    if (exam.consent?.status === 'signed') throw conflict('The consent is already signed and cannot be re-initialized');
    const reinit = exam.consent !== null;
    const fresh = newConsent(body.country_code, body.locale);
    if (exam.consent) fresh.created_at = exam.consent.created_at;
    exam.consent = fresh;
    app.events.activity(
      exam.account_id,
      reinit ? 'consent.reinitialized' : 'consent.initialized',
      'exam',
      exam.id,
      { country_code: fresh.country_code, locale: fresh.locale },
      exam.sandbox,
    );
    return { status: reinit ? 200 : 201, body: view(fresh) };
  });

  app.api.add('POST', '/exams/:id/consent/sign-inperson', { scope: 'exams:write' }, async (ctx) => {
    const exam = callerExam(app, ctx);
    const body = parseWith(inPersonSchema, objectBody(ctx.body));
    const consent = pendingOrConflict(exam);
    let document = body.signer_rut;
    if (consent.country_code === 'CL') {
      const rut = normalizeRut(body.signer_rut);
      if (!rut)
        throw badRequest('signer_rut is not a valid RUT', [
          { field: 'signer_rut', message: 'not a valid Chilean RUT (check digit)' },
        ]);
      document = rut;
    }
    const png = decodeStrictBase64(body.signature_image.replace(/^data:image\/png;base64,/, ''));
    if (!png || png.length < PNG_MAGIC.length || !png.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC)) {
      throw badRequest('signature_image must be a base64 PNG', [
        { field: 'signature_image', message: 'expected base64 PNG data' },
      ]);
    }
    if (png.length > MAX_SIGNATURE_BYTES) {
      throw badRequest('signature_image is too large', [
        { field: 'signature_image', message: `at most ${MAX_SIGNATURE_BYTES} bytes` },
      ]);
    }
    if (!(await isReadablePng(png))) {
      throw badRequest('signature_image is not a readable PNG', [
        { field: 'signature_image', message: 'unreadable PNG' },
      ]);
    }
    const signer: ConsentSigner = {
      name: body.signer_name,
      document,
      signedAt: app.clock.nowIso(),
      method: 'in_person',
      signaturePng: png,
    };
    await sign(exam, consent, signer, body.patient_birth_date ?? null);
    return { body: view(consent) };
  });

  app.api.add('POST', '/exams/:id/consent/email', { scope: 'exams:write' }, (ctx) => {
    const exam = callerExam(app, ctx);
    const body = parseWith(emailSchema, objectBody(ctx.body));
    if (exam.consent?.status === 'signed') throw conflict('The consent is already signed');
    const consent = exam.consent ?? newConsent();
    exam.consent = consent;
    // One link per pending consent: sending again keeps the link already given out working.
    consent.sign_token ??= randomToken(24);
    consent.email_to = body.to;
    consent.patient_name = body.patient_name ?? consent.patient_name;
    consent.updated_at = app.clock.nowIso();
    const signUrl = `${app.origin()}/consent/sign/${consent.sign_token}`;
    app.events.activity(exam.account_id, 'consent.email_sent', 'exam', exam.id, {}, exam.sandbox);
    if (exam.sandbox) return { body: { sent: false, reason: 'test_mode_no_send', sign_url: signUrl, email_id: null } };
    const w = wording(consent.locale);
    const clinic = accountOf(app, exam)?.clinic_name ?? '';
    const mail = app.events.mail({
      account_id: exam.account_id,
      kind: 'consent_sign',
      to: [body.to],
      cc: [],
      subject: w.mailSubject(clinic),
      body: w.mailBody(clinic, exam.name, signUrl),
      attachments: [],
      exam_id: exam.id,
    });
    return { body: { sent: true, sign_url: signUrl, email_id: mail.id } };
  });

  app.api.add('GET', '/exams/:id/consent/pdf', { scope: 'exams:read' }, async (ctx) => {
    const exam = callerExam(app, ctx);
    const type = ctx.query.get('type');
    if (type !== 'blank' && type !== 'signed') {
      throw badRequest('type must be blank or signed', [{ field: 'type', message: 'expected blank or signed' }]);
    }
    let pdf: Buffer;
    if (type === 'signed') {
      const c = exam.consent;
      if (c?.status !== 'signed' || !c.signed_pdf) throw conflict('The consent is not signed yet');
      const key = c.signed_pdf;
      try {
        pdf = readObject(app, key);
      } catch {
        throw notFound('Signed consent document');
      }
    } else {
      pdf = await document(exam, exam.consent, null);
    }
    sendBytes(ctx.res, 200, 'application/pdf', pdf, {
      'Content-Disposition': `inline; filename="consent-${exam.id}-${type}.pdf"`,
    });
    return null;
  });

  const byToken = (token: string): Exam | undefined =>
    app.store.state.exams.find((e) => e.consent?.sign_token === token && liveExam(app, e.id) !== undefined);

  app.public.add('GET', '/consent/sign/:token', { scope: null }, ({ res, params }) => {
    const exam = byToken(params['token'] ?? '');
    sendHtml(res, exam?.consent ? 200 : 404, signPage(app, exam));
    return null;
  });

  // The patient's form on the signing page posts here (application/x-www-form-urlencoded).
  app.public.add('POST', '/consent/sign/:token', { scope: null }, async ({ req, res, params }) => {
    const exam = byToken(params['token'] ?? '');
    const form = new URLSearchParams((await readBody(req, 64 * 1024)).toString('utf8'));
    const consent = exam?.consent;
    if (!exam || !consent) {
      sendHtml(res, 404, signPage(app, undefined));
      return null;
    }
    const name = (form.get('signer_name') ?? '').trim();
    if (consent.status === 'pending' && name.length >= 1 && name.length <= 200 && form.get('accepted') === 'true') {
      await sign(
        exam,
        consent,
        { name, document: null, signedAt: app.clock.nowIso(), method: 'email', signaturePng: null },
        null,
      );
      app.store.save();
      sendHtml(res, 200, signPage(app, exam));
    } else {
      sendHtml(
        res,
        consent.status === 'signed' ? 409 : 400,
        signPage(app, exam, consent.status === 'pending' ? 'Enter your name and accept the consent.' : undefined),
      );
    }
    return null;
  });

  app.control.add('POST', '/consent/:exam_id/sign-remote', { scope: null }, async ({ req, params }) => {
    const exam = liveExam(app, params['exam_id'] ?? '');
    if (!exam) throw notFound('Exam');
    const body = parseWith(remoteSchema, objectBody(parseJson(await readBody(req))));
    const consent = pendingOrConflict(exam);
    if (!consent.sign_token) throw conflict('No signing e-mail has been sent for this consent');
    await sign(
      exam,
      consent,
      { name: body.signer_name, document: null, signedAt: app.clock.nowIso(), method: 'email', signaturePng: null },
      null,
    );
    return { body: view(consent) };
  });
}

function signPage(app: App, exam: Exam | undefined, problem?: string): string {
  const consent = exam?.consent;
  if (!exam || !consent) {
    return page('Link not valid', '<h1>This signing link is not valid</h1><p>Ask the clinic for a new link.</p>');
  }
  const w = wording(consent.locale);
  const clinic = escapeHtml(accountOf(app, exam)?.clinic_name ?? '');
  const text = w.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('');
  const head = `<p>${clinic}</p><h1>${escapeHtml(w.title)}</h1><p><b>${escapeHtml(w.labels.exam)}:</b> ${escapeHtml(exam.name)}</p>${text}`;
  if (consent.status === 'signed') {
    return page(
      w.title,
      `${head}<p><b>${escapeHtml(w.labels.signedAt)}:</b> ${escapeHtml(consent.signed_at ?? '')}</p><p>SHA-256: <code>${escapeHtml(consent.hash ?? '')}</code></p>`,
    );
  }
  const err = problem ? `<p role="alert">${escapeHtml(problem)}</p>` : '';
  return page(
    w.title,
    `${head}${err}<form method="post"><label>${escapeHtml(w.labels.signer)} <input name="signer_name" maxlength="200" required></label>
<label><input type="checkbox" name="accepted" value="true" required> OK</label><button type="submit">${escapeHtml(w.labels.signature)}</button></form>`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}
