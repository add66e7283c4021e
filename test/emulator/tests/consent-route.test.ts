import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';
import { createReadyExam, makePng, pdfText } from '../../support/emulator/emulator-reports';

type Mail = { kind: string; to: string[]; subject: string; body: string; exam_id: string | null };

describe('emulator: informed consent', () => {
  let emu: EmulatorProcess;
  let key: string;
  const png = makePng().toString('base64');

  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    key = emu.info.keys.pro;
  });
  afterAll(async () => {
    await emu.dispose();
  });

  const call = (method: string, path: string, body?: unknown, k = key) => api(emu.info, k, method, path, body);
  const signBody = (over: Record<string, unknown> = {}) => ({
    signer_name: 'María José Ñúñez',
    signer_rut: '12.345.678-5',
    signature_image: png,
    accepted: true,
    ...over,
  });
  async function pdf(
    examId: string,
    type: string,
    k = key,
  ): Promise<{ status: number; type: string | null; bytes: Buffer }> {
    const res = await fetch(`${emu.info.base_url}/exams/${examId}/consent/pdf?type=${type}`, {
      headers: { Authorization: `Bearer ${k}` },
    });
    return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
  }
  async function pendingExam(init: Record<string, unknown> = {}, opts = {}): Promise<string> {
    const id = await createReadyExam(emu.info, key, opts);
    expect((await call('POST', `/exams/${id}/consent`, init)).status).toBe(201);
    return id;
  }

  it('reads {consent: null} before initialization, then initializes (201) and re-initializes while pending (200)', async () => {
    const id = await createReadyExam(emu.info, key);
    expect((await call('GET', `/exams/${id}/consent`)).json).toEqual({ consent: null });
    const init = await call('POST', `/exams/${id}/consent`);
    expect(init.status).toBe(201);
    expect(init.json).toMatchObject({
      status: 'pending',
      signing_method: null,
      signed_at: null,
      hash: null,
      country_code: 'CL',
      locale: 'es',
      signer_name: null,
    });
    const re = await call('POST', `/exams/${id}/consent`, { country_code: 'ar', locale: 'en' });
    expect(re.status).toBe(200);
    expect(re.json).toMatchObject({ status: 'pending', country_code: 'AR', locale: 'en' });
    expect((await call('GET', `/exams/${id}/consent`)).json).toMatchObject({
      status: 'pending',
      country_code: 'AR',
      locale: 'en',
    });
    for (const body of [{ locale: 'fr' }, { country_code: 'CHL' }, { country_code: 12 }, { signer: 'x' }, [1]]) {
      const r = await call('POST', `/exams/${id}/consent`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error?.code).toBe('validation_error');
    }
  });

  it('signs in person: the hash is the SHA-256 of the signed PDF served, which names signer, RUT, patient and exam', async () => {
    const id = await pendingExam(
      {},
      { name: 'CBCT mandíbula completa', patient_name: 'Ana Pérez Ñanculef', birth_date: '1980-04-02' },
    );
    const r = await call('POST', `/exams/${id}/consent/sign-inperson`, signBody({ patient_birth_date: '1980-04-03' }));
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'signed', signing_method: 'in_person', signer_name: 'María José Ñúñez' });
    expect(r.json['hash']).toMatch(/^[0-9a-f]{64}$/);
    expect(Number.isNaN(Date.parse(r.json['signed_at'] as string))).toBe(false);
    expect((await call('GET', `/exams/${id}/consent`)).json).toEqual(r.json);

    const signed = await pdf(id, 'signed');
    expect(signed.status).toBe(200);
    expect(signed.type).toBe('application/pdf');
    expect(createHash('sha256').update(signed.bytes).digest('hex')).toBe(r.json['hash']);
    const doc = await pdfText(signed.bytes);
    expect(doc.pages).toBeGreaterThanOrEqual(1);
    for (const s of [
      'Consentimiento informado',
      'María José Ñúñez',
      '12345678-5',
      'Ana Pérez Ñanculef',
      'CBCT mandíbula completa',
      '1980-04-03',
      'presencial',
      'Clínica Radiológica Ñuñoa',
    ]) {
      expect(doc.text, s).toContain(s);
    }
    expect(doc.images).toBe(1);
    // The same bytes on every read.
    expect((await pdf(id, 'signed')).bytes.equals(signed.bytes)).toBe(true);
  });

  it('answers 409 once signed: re-initialization, a second signing and a signing e-mail', async () => {
    const id = await pendingExam();
    expect((await call('POST', `/exams/${id}/consent/sign-inperson`, signBody())).status).toBe(200);
    for (const [path, body] of [
      ['consent', {}],
      ['consent/sign-inperson', signBody()],
      ['consent/email', { to: 'paciente@example.cl' }],
    ] as const) {
      const r = await call('POST', `/exams/${id}/${path}`, body);
      expect(r.status, path).toBe(409);
      expect(r.json.error?.code).toBe('conflict');
    }
    expect((await call('GET', `/exams/${id}/consent`)).json['status']).toBe('signed');
  });

  it('refuses in-person signing without an initialized consent (409)', async () => {
    const id = await createReadyExam(emu.info, key);
    const r = await call('POST', `/exams/${id}/consent/sign-inperson`, signBody());
    expect(r.status).toBe(409);
    expect(r.json.error?.code).toBe('conflict');
  });

  it('validates the in-person signing body field by field', async () => {
    const id = await pendingExam();
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70]).toString('base64');
    const brokenPng = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('not really a png'),
    ]).toString('base64');
    const cases: [Record<string, unknown>, string][] = [
      [{ signer_name: '' }, 'signer_name'],
      [{ signer_name: 'x'.repeat(201) }, 'signer_name'],
      [{ signer_rut: '12.345.678-9' }, 'signer_rut'],
      [{ signer_rut: '12345678' }, 'signer_rut'],
      [{ signer_rut: '1.2345.678-5' }, 'signer_rut'],
      [{ signer_rut: 'abc-5' }, 'signer_rut'],
      [{ signature_image: jpeg }, 'signature_image'],
      [{ signature_image: brokenPng }, 'signature_image'],
      [{ signature_image: '%%%not base64' }, 'signature_image'],
      [{ accepted: false }, 'accepted'],
      [{ accepted: 'true' }, 'accepted'],
      [{ patient_birth_date: '1990-02-30' }, 'patient_birth_date'],
      [{ patient_birth_date: '2999-01-01' }, 'patient_birth_date'],
      [{ extra: 1 }, 'body'],
    ];
    for (const [over, field] of cases) {
      const r = await call('POST', `/exams/${id}/consent/sign-inperson`, signBody(over));
      expect(r.status, JSON.stringify(over).slice(0, 60)).toBe(400);
      expect(r.json.error?.code).toBe('validation_error');
      const fields = (r.json.error?.['details'] as { field: string }[]).map((d) => d.field);
      expect(
        fields.some((f) => f === field || (field === 'body' && f === 'body')),
        `${field} in ${fields.join(',')}`,
      ).toBe(true);
    }
    const missing = await call('POST', `/exams/${id}/consent/sign-inperson`, { signer_name: 'A', accepted: true });
    expect(missing.status).toBe(400);
    expect((await call('GET', `/exams/${id}/consent`)).json['status']).toBe('pending');
  });

  it('accepts the RUT spellings 12.345.678-5, 12345678-5 and a K check digit in either case', async () => {
    for (const [rut, printed] of [
      ['12345678-5', '12345678-5'],
      ['6.000.000-K', '6000000-K'],
      ['6000000-k', '6000000-K'],
    ]) {
      const id = await pendingExam();
      const r = await call('POST', `/exams/${id}/consent/sign-inperson`, signBody({ signer_rut: rut }));
      expect(r.status, rut).toBe(200);
      expect((await pdfText((await pdf(id, 'signed')).bytes)).text).toContain(printed);
    }
  });

  it('outside Chile takes any document number and prints the locale text', async () => {
    const id = await pendingExam({ country_code: 'AR', locale: 'en' });
    const r = await call('POST', `/exams/${id}/consent/sign-inperson`, signBody({ signer_rut: 'DNI 30.123.456' }));
    expect(r.status).toBe(200);
    const doc = await pdfText((await pdf(id, 'signed')).bytes);
    expect(doc.text).toContain('Informed consent');
    expect(doc.text).toContain('DNI 30.123.456');
    expect(doc.text).toContain('in person');
  });

  it('signs names outside the PDF font (Japanese) with ? in the document instead of failing', async () => {
    const id = await pendingExam();
    const r = await call('POST', `/exams/${id}/consent/sign-inperson`, signBody({ signer_name: 'Yamada 山田太郎' }));
    expect(r.status).toBe(200);
    expect(r.json['signer_name']).toBe('Yamada 山田太郎');
    expect((await pdfText((await pdf(id, 'signed')).bytes)).text).toContain('Yamada ????');
  });

  it('serves a real blank PDF with or without a consent, and refuses a missing type, another type or signed-before-signing', async () => {
    const id = await createReadyExam(emu.info, key, { name: 'Radiografía panorámica' });
    const blank = await pdf(id, 'blank');
    expect(blank.status).toBe(200);
    expect(blank.type).toBe('application/pdf');
    const text = (await pdfText(blank.bytes)).text;
    expect(text).toContain('Consentimiento informado');
    expect(text).toContain('Documento sin firmar');
    expect(text).toContain('Radiografía panorámica');

    await call('POST', `/exams/${id}/consent`, { locale: 'pt', country_code: 'BR' });
    expect((await pdfText((await pdf(id, 'blank')).bytes)).text).toContain('Consentimento informado');
    const early = await pdf(id, 'signed');
    expect(early.status).toBe(409);
    for (const t of ['', 'draft']) expect((await pdf(id, t)).status).toBe(400);
    expect(
      (await fetch(`${emu.info.base_url}/exams/${id}/consent/pdf`, { headers: { Authorization: `Bearer ${key}` } }))
        .status,
    ).toBe(400);
  });

  it('e-mails a signing link (initializing the consent), and the remote signing completes it with a signed PDF', async () => {
    const id = await createReadyExam(emu.info, key, { name: 'CBCT ATM bilateral' });
    const to = 'paciente.remoto@example.cl';
    const r = await call('POST', `/exams/${id}/consent/email`, { to, patient_name: 'Rosa Quispe' });
    expect(r.status).toBe(200);
    expect(r.json['sent']).toBe(true);
    expect(r.json['email_id']).toMatch(/^eml_/);
    const signUrl = r.json['sign_url'] as string;
    expect(signUrl.startsWith(`${new URL(emu.info.base_url).origin}/consent/sign/`)).toBe(true);
    expect((await call('GET', `/exams/${id}/consent`)).json).toMatchObject({ status: 'pending', signing_method: null });

    const { mail } = await emu.control<{ mail: Mail[] }>('GET', `/mail?to=${encodeURIComponent(to)}`);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ kind: 'consent_sign', to: [to], exam_id: id });
    expect(mail[0]?.body).toContain(signUrl);

    const page = await fetch(signUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('CBCT ATM bilateral');
    // Sending again keeps the same link valid.
    expect((await call('POST', `/exams/${id}/consent/email`, { to })).json['sign_url']).toBe(signUrl);

    const signed = await emu.control<Record<string, unknown>>('POST', `/consent/${id}/sign-remote`, {
      signer_name: 'Rosa Quispe Mamani',
    });
    expect(signed).toMatchObject({ status: 'signed', signing_method: 'email', signer_name: 'Rosa Quispe Mamani' });
    const got = await pdf(id, 'signed');
    expect(createHash('sha256').update(got.bytes).digest('hex')).toBe(signed['hash']);
    const doc = await pdfText(got.bytes);
    expect(doc.text).toContain('Rosa Quispe Mamani');
    expect(doc.text).toContain('Rosa Quispe');
    expect(doc.text).toContain('enlace por correo');
    expect(doc.images).toBe(0);
    expect(await (await fetch(signUrl)).text()).toContain(signed['hash'] as string);

    const again = await fetch(`${emu.info.control_url}/consent/${id}/sign-remote`, {
      method: 'POST',
      body: JSON.stringify({ signer_name: 'X' }),
    });
    expect(again.status).toBe(409);
  });

  it('validates the e-mail request and the remote signing', async () => {
    const id = await createReadyExam(emu.info, key);
    for (const body of [
      {},
      { to: 'not-an-address' },
      { to: 'a@example.cl', cc: 'b@example.cl' },
      { to: 'a@example.cl', patient_name: '' },
    ]) {
      const r = await call('POST', `/exams/${id}/consent/email`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error?.code).toBe('validation_error');
    }
    const ctl = (examId: string, body: unknown) =>
      fetch(`${emu.info.control_url}/consent/${examId}/sign-remote`, { method: 'POST', body: JSON.stringify(body) });
    expect((await ctl('exm_unknown', { signer_name: 'A' })).status).toBe(404);
    // No e-mail was sent for this exam's consent.
    await call('POST', `/exams/${id}/consent`);
    expect((await ctl(id, { signer_name: 'A' })).status).toBe(409);
    await call('POST', `/exams/${id}/consent/email`, { to: 'a@example.cl' });
    expect((await ctl(id, { signer_name: '' })).status).toBe(400);
    expect((await ctl(id, {})).status).toBe(400);
    expect((await fetch(`${new URL(emu.info.base_url).origin}/consent/sign/not-a-token`)).status).toBe(404);
  });

  it('the patient can sign on the e-mailed page itself', async () => {
    const id = await createReadyExam(emu.info, key);
    const signUrl = (await call('POST', `/exams/${id}/consent/email`, { to: 'form@example.cl' })).json[
      'sign_url'
    ] as string;
    const form = (body: string) =>
      fetch(signUrl, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body });
    expect((await form('signer_name=Luis+Soto')).status).toBe(400);
    const ok = await form('signer_name=Luis+Soto&accepted=true');
    expect(ok.status).toBe(200);
    expect((await call('GET', `/exams/${id}/consent`)).json).toMatchObject({
      status: 'signed',
      signing_method: 'email',
      signer_name: 'Luis Soto',
    });
    expect((await form('signer_name=Otro&accepted=true')).status).toBe(409);
  });

  it('records a notification and an activity entry when a consent is signed', async () => {
    const id = await pendingExam();
    await call('POST', `/exams/${id}/consent/sign-inperson`, signBody());
    const notes = (await call('GET', '/notifications')).json['notifications'] as { type: string; exam_id: string }[];
    expect(notes.some((n) => n.type === 'consent_signed' && n.exam_id === id)).toBe(true);
    const act = (await call('GET', '/activity?action=consent.signed')).json['activity'] as {
      resource_id: string;
      data: Record<string, unknown>;
    }[];
    const entry = act.find((a) => a.resource_id === id);
    expect(entry?.data['signing_method']).toBe('in_person');
    expect(JSON.stringify(entry)).not.toContain('Ñúñez');
  });

  it('sandbox: consent works on sandbox exams, the e-mail is not sent, and live keys cannot see them', async () => {
    const sb = emu.info.keys.sandbox;
    const id = await createReadyExam(emu.info, sb);
    const to = 'sandbox.paciente@example.cl';
    const r = await call('POST', `/exams/${id}/consent/email`, { to }, sb);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ sent: false, reason: 'test_mode_no_send', email_id: null });
    expect(typeof r.json['sign_url']).toBe('string');
    expect((await emu.control<{ mail: Mail[] }>('GET', `/mail?to=${encodeURIComponent(to)}`)).mail).toEqual([]);
    expect((await call('GET', `/exams/${id}/consent`)).status).toBe(404);
    const signed = await call('POST', `/exams/${id}/consent/sign-inperson`, signBody(), sb);
    expect(signed.json['status']).toBe('signed');
    expect((await pdf(id, 'signed', sb)).status).toBe(200);
    expect((await pdf(id, 'signed')).status).toBe(404);
  });

  it('scopes: reads need exams:read, changes exams:write; other accounts and deleted exams are 404', async () => {
    const id = await pendingExam();
    const ro = emu.info.keys.readonly;
    expect((await call('GET', `/exams/${id}/consent`, undefined, ro)).status).toBe(200);
    expect((await pdf(id, 'blank', ro)).status).toBe(200);
    for (const [path, body] of [
      ['consent', {}],
      ['consent/sign-inperson', signBody()],
      ['consent/email', { to: 'a@example.cl' }],
    ] as const) {
      const r = await call('POST', `/exams/${id}/${path}`, body, ro);
      expect(r.status, path).toBe(403);
      expect(r.json.error?.['required_scope']).toBe('exams:write');
    }
    expect((await call('GET', `/exams/${id}/consent`, undefined, emu.info.keys.free)).status).toBe(404);
    expect((await call('POST', `/exams/${id}/consent`, {}, emu.info.keys.free)).status).toBe(404);
    expect((await call('DELETE', `/exams/${id}`)).status).toBe(200);
    expect((await call('GET', `/exams/${id}/consent`)).status).toBe(404);
    expect((await call('POST', `/exams/${id}/consent/sign-inperson`, signBody())).status).toBe(404);
    expect((await pdf(id, 'blank')).status).toBe(404);
  });
});
