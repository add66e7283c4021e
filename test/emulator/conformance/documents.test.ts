// Share by e-mail, informed consent and reports (API-v1.md §2.6, §2.7, §3.2, §3.6, §4.2 share, §4.3,
// §4.4; CONTRACTS.md control API: /mail, /consent/{id}/sign-remote).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { api, EmulatorProcess, type EmulatorInfo } from '../../support/emulator/emulator';
import {
  expectError,
  expectOk,
  expectValidationError,
  getBytes,
  ISO_TIMESTAMP,
  listIn,
  makePdf,
  makePng,
  readyExam,
  sha256Hex,
  stringsIn,
} from '../../support/emulator/conformance-client';

let emu: EmulatorProcess;
let info: EmulatorInfo;
let pro: string;

beforeAll(async () => {
  emu = await EmulatorProcess.start();
  info = emu.info;
  pro = info.keys.pro;
});
afterAll(async () => {
  await emu.dispose();
});

const mail = async (): Promise<unknown[]> => listIn(await emu.control('GET', '/mail'), 'mail');
const mailTo = async (address: string): Promise<unknown[]> =>
  (await mail()).filter((m) => stringsIn(m).some((s) => s.includes(address)));

describe('POST /exams/{id}/share', () => {
  it('live: the e-mail is sent (control /mail) and a CBCT e-mail carries the viewer link', async () => {
    const id = await readyExam(info, pro, { name: 'Compartir', patient_name: 'Carla Ruiz' });
    const exam = await api(info, pro, 'GET', `/exams/${id}`);
    const res = await api(info, pro, 'POST', `/exams/${id}/share`, {
      to: 'carla.ruiz@example.com',
      message: 'Adjunto su examen',
      locale: 'es',
    });
    expectOk(res);
    expect(res.json.sent).not.toBe(false);
    const sent = await mailTo('carla.ruiz@example.com');
    expect(sent).toHaveLength(1);
    expect(stringsIn(sent[0]).some((s) => s.includes(String(exam.json.viewer_url)))).toBe(true);
  });

  it('live: cc recipients are accepted and recorded', async () => {
    const id = await readyExam(info, pro, { name: 'Compartir cc' });
    const res = await api(info, pro, 'POST', `/exams/${id}/share`, {
      to: 'titular@example.com',
      cc: ['copia@example.com'],
    });
    expectOk(res);
    const sent = await mailTo('titular@example.com');
    expect(sent).toHaveLength(1);
    expect(stringsIn(sent[0])).toContain('copia@example.com');
  });

  it('sandbox: nothing is sent, the answer has sent=false and reason=test_mode_no_send', async () => {
    const id = await readyExam(info, info.keys.sandbox, { name: 'Compartir sandbox' });
    const before = (await mail()).length;
    const res = await api(info, info.keys.sandbox, 'POST', `/exams/${id}/share`, {
      to: 'sandbox.paciente@example.com',
    });
    expectOk(res);
    expect(res.json.sent).toBe(false);
    expect(res.json.reason).toBe('test_mode_no_send');
    expect(await mail()).toHaveLength(before);
    expect(await mailTo('sandbox.paciente@example.com')).toEqual([]);
  });

  it('the recipient is required', async () => {
    const id = await readyExam(info, pro, { name: 'Sin destinatario' });
    expectValidationError(await api(info, pro, 'POST', `/exams/${id}/share`, {}), 'to');
  });
});

const Consent = z
  .object({
    status: z.string(),
    signing_method: z.string().nullable(),
    signed_at: z.string().nullable(),
    hash: z.string().nullable(),
  })
  .loose();

const readConsent = async (id: string) => {
  const res = await api(info, pro, 'GET', `/exams/${id}/consent`);
  expectOk(res, 200);
  return Consent.parse(res.json);
};

describe('consent', () => {
  const signature = makePng().toString('base64');
  const signBody = {
    signer_name: 'Ana Soto',
    signer_rut: '11.111.111-1',
    patient_birth_date: '1985-04-12',
    signature_image: signature,
    accepted: true,
  };

  it('reads {consent: null} before initialization', async () => {
    const id = await readyExam(info, pro, { name: 'Sin consentimiento' });
    const res = await api(info, pro, 'GET', `/exams/${id}/consent`);
    expectOk(res, 200);
    expect(res.json).toHaveProperty('consent', null);
  });

  it('initializes to pending, re-initializes while pending, and serves the blank PDF', async () => {
    const id = await readyExam(info, pro, { name: 'Consentimiento' });
    expectOk(await api(info, pro, 'POST', `/exams/${id}/consent`, { country_code: 'CL', locale: 'es' }));
    expect((await readConsent(id)).status).toBe('pending');
    expectOk(await api(info, pro, 'POST', `/exams/${id}/consent`, { country_code: 'CL', locale: 'es' }));
    expect((await readConsent(id)).status).toBe('pending');
    expectOk(await api(info, pro, 'POST', `/exams/${id}/consent`));
    const blank = await getBytes(`${info.base_url}/exams/${id}/consent/pdf?type=blank`, pro);
    expect(blank.status).toBe(200);
    expect(blank.type).toContain('application/pdf');
    expect(blank.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expectError(await api(info, pro, 'GET', `/exams/${id}/consent/pdf?type=signed`));
    expectValidationError(await api(info, pro, 'GET', `/exams/${id}/consent/pdf?type=draft`), 'type');
  });

  it('in-person signing validates its input', async () => {
    const id = await readyExam(info, pro, { name: 'Firma inválida' });
    expectOk(await api(info, pro, 'POST', `/exams/${id}/consent`, { country_code: 'CL', locale: 'es' }));
    const sign = (body: Record<string, unknown>) =>
      api(info, pro, 'POST', `/exams/${id}/consent/sign-inperson`, { ...signBody, ...body });
    expectValidationError(await sign({ accepted: false }), 'accepted');
    expectValidationError(
      await sign({ signature_image: Buffer.from('not a png at all').toString('base64') }),
      'signature_image',
    );
    expectValidationError(await sign({ patient_birth_date: '12/04/1985' }), 'patient_birth_date');
    expectValidationError(await sign({ signer_name: undefined }), 'signer_name');
    expectValidationError(await sign({ signer_rut: undefined }), 'signer_rut');
    expectValidationError(await sign({ signature_image: undefined }), 'signature_image');
    expect((await readConsent(id)).status).toBe('pending');
  });

  it('in-person signing with a PNG: hash is the SHA-256 of the signed PDF; re-initializing then gives 409', async () => {
    const id = await readyExam(info, pro, { name: 'Firma presencial', patient_name: 'Ana Soto' });
    expectOk(await api(info, pro, 'POST', `/exams/${id}/consent`, { country_code: 'CL', locale: 'es' }));
    expectOk(await api(info, pro, 'POST', `/exams/${id}/consent/sign-inperson`, signBody));
    const c = await readConsent(id);
    expect(c.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(c.signing_method).toBeTruthy();
    expect(c.signed_at).toMatch(ISO_TIMESTAMP);
    const pdf = await getBytes(`${info.base_url}/exams/${id}/consent/pdf?type=signed`, pro);
    expect(pdf.status).toBe(200);
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(sha256Hex(pdf.bytes)).toBe(c.hash);
    expectError(
      await api(info, pro, 'POST', `/exams/${id}/consent`, { country_code: 'CL', locale: 'es' }),
      409,
      'conflict',
    );
    expect((await readConsent(id)).hash).toBe(c.hash);
  });

  it('e-mail signing: the link is e-mailed (live), sign-remote completes it with its own method and hash', async () => {
    const inPerson = await readyExam(info, pro, { name: 'Presencial ref' });
    expectOk(await api(info, pro, 'POST', `/exams/${inPerson}/consent`));
    expectOk(await api(info, pro, 'POST', `/exams/${inPerson}/consent/sign-inperson`, signBody));
    const inPersonMethod = (await readConsent(inPerson)).signing_method;

    const id = await readyExam(info, pro, { name: 'Firma remota', patient_name: 'Pablo Vera' });
    expectOk(await api(info, pro, 'POST', `/exams/${id}/consent`, { country_code: 'CL', locale: 'es' }));
    const res = await api(info, pro, 'POST', `/exams/${id}/consent/email`, {
      to: 'pablo.vera@example.com',
      patient_name: 'Pablo Vera',
    });
    expectOk(res);
    const signUrl = z.string().url().parse(res.json.sign_url);
    const sent = await mailTo('pablo.vera@example.com');
    expect(sent).toHaveLength(1);
    expect(stringsIn(sent[0]).some((s) => s.includes(signUrl))).toBe(true);
    expect((await readConsent(id)).hash ?? null).toBeNull();

    await emu.control('POST', `/consent/${id}/sign-remote`, { signer_name: 'Pablo Vera' });
    const c = await readConsent(id);
    expect(c.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(c.signing_method).toBeTruthy();
    expect(c.signing_method).not.toBe(inPersonMethod);
    const pdf = await getBytes(`${info.base_url}/exams/${id}/consent/pdf?type=signed`, pro);
    expect(pdf.status).toBe(200);
    expect(sha256Hex(pdf.bytes)).toBe(c.hash);
    expectError(await api(info, pro, 'POST', `/exams/${id}/consent`), 409, 'conflict');
  });
});

describe('reports', () => {
  const urlsIn = (json: unknown) => stringsIn(json).filter((s) => /^https?:\/\//.test(s));

  it('upload, read through the presigned URL, replace, sign with a verification page, delete twice', async () => {
    const id = await readyExam(info, pro, { name: 'Informe' });
    const pdf1 = await makePdf('Informe uno');
    const up = await api(info, pro, 'POST', `/exams/${id}/report`, {
      pdf_base64: pdf1.toString('base64'),
      filename: 'informe.pdf',
    });
    expectOk(up);

    const read = await api(info, pro, 'GET', `/exams/${id}/report`);
    expectOk(read, 200);
    const bodies = await Promise.all(urlsIn(read.json).map((u) => getBytes(u)));
    expect(bodies.some((b) => b.status === 200 && b.bytes.equals(pdf1))).toBe(true);

    const pdf2 = await makePdf('Informe dos, reemplazo');
    expectOk(await api(info, pro, 'POST', `/exams/${id}/report`, { pdf_base64: pdf2.toString('base64') }));
    const reread = await api(info, pro, 'GET', `/exams/${id}/report`);
    const bodies2 = await Promise.all(urlsIn(reread.json).map((u) => getBytes(u)));
    expect(bodies2.some((b) => b.status === 200 && b.bytes.equals(pdf2))).toBe(true);

    const signed = await api(info, pro, 'POST', `/exams/${id}/report/sign`);
    expectOk(signed);
    const signatureId = z.string().min(1).parse(signed.json.signature_id);
    const verification = urlsIn(signed.json);
    expect(verification.length).toBeGreaterThan(0);
    const pages = await Promise.all(verification.map((u) => getBytes(u)));
    expect(pages.some((p) => p.status === 200 && p.bytes.length > 0)).toBe(true);

    const afterSign = await api(info, pro, 'GET', `/exams/${id}/report`);
    expectOk(afterSign, 200);
    expect(stringsIn(afterSign.json)).toContain(signatureId);

    expectOk(await api(info, pro, 'DELETE', `/exams/${id}/report`), 200);
    const gone = await api(info, pro, 'GET', `/exams/${id}/report`);
    if (gone.status >= 300) expectError(gone, 404, 'not_found');
    else {
      const left = await Promise.all(urlsIn(gone.json).map((u) => getBytes(u)));
      expect(left.some((b) => b.status === 200 && b.bytes.equals(pdf2))).toBe(false);
    }
    expectOk(await api(info, pro, 'DELETE', `/exams/${id}/report`), 200);
  });

  it('DELETE answers 200 when the exam never had a report', async () => {
    const id = await readyExam(info, pro, { name: 'Sin informe' });
    expectOk(await api(info, pro, 'DELETE', `/exams/${id}/report`), 200);
  });

  it('a body that is not a base64 PDF is a validation error', async () => {
    const id = await readyExam(info, pro, { name: 'Informe malo' });
    expectValidationError(
      await api(info, pro, 'POST', `/exams/${id}/report`, { pdf_base64: Buffer.from('hola').toString('base64') }),
      'pdf_base64',
    );
    expectValidationError(await api(info, pro, 'POST', `/exams/${id}/report`, {}), 'pdf_base64');
  });

  it('signing without a report is refused', async () => {
    const id = await readyExam(info, pro, { name: 'Firmar nada' });
    expectError(await api(info, pro, 'POST', `/exams/${id}/report/sign`), [400, 404, 409]);
  });
});
