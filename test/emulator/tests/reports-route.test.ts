import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';
import { createReadyExam, makePdf } from '../../support/emulator/emulator-reports';

type ReportGet = {
  url: string;
  expires_at: string;
  filename: string;
  size_bytes: number;
  uploaded_at: string;
  signed: boolean;
  signature: { signature_id: string; signed_at: string; verification_url: string } | null;
};

describe('emulator: PDF reports', () => {
  let emu: EmulatorProcess;
  let key: string;
  let origin: string;

  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    key = emu.info.keys.pro;
    origin = new URL(emu.info.base_url).origin;
  });
  afterAll(async () => {
    await emu.dispose();
  });

  const call = (method: string, path: string, body?: unknown, k = key) => api(emu.info, k, method, path, body);
  const upload = (examId: string, pdf: Buffer, filename?: string, k = key) =>
    call(
      'POST',
      `/exams/${examId}/report`,
      { pdf_base64: pdf.toString('base64'), ...(filename ? { filename } : {}) },
      k,
    );
  const download = async (url: string) => {
    const res = await fetch(url);
    return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
  };

  it('uploads a PDF and serves exactly those bytes through the presigned URL of GET', async () => {
    const id = await createReadyExam(emu.info, key);
    const pdf = await makePdf('Informe radiológico: sin hallazgos patológicos');
    const r = await upload(id, pdf, 'informe-2024.pdf');
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ filename: 'informe-2024.pdf', size_bytes: pdf.length, signed: false });
    expect(Object.keys(r.json).sort()).toEqual(['filename', 'signed', 'size_bytes', 'uploaded_at']);

    const g = await call('GET', `/exams/${id}/report`);
    expect(g.status).toBe(200);
    const rep = g.json as unknown as ReportGet;
    expect(rep).toMatchObject({
      filename: 'informe-2024.pdf',
      size_bytes: pdf.length,
      signed: false,
      signature: null,
      uploaded_at: r.json['uploaded_at'],
    });
    expect(rep.url.startsWith(`${origin}/storage/${id}/`)).toBe(true);
    expect(Date.parse(rep.expires_at)).toBeGreaterThan(Date.now());
    const got = await download(rep.url);
    expect(got.status).toBe(200);
    expect(got.type).toBe('application/pdf');
    expect(got.bytes.equals(pdf)).toBe(true);
    // The URL is signed: tampering with it is refused.
    expect((await download(rep.url.replace(/sig=[0-9a-f]/, 'sig=z'))).status).toBe(403);
  });

  it('names the report report.pdf when no filename is given', async () => {
    const id = await createReadyExam(emu.info, key);
    expect((await upload(id, await makePdf('x'))).json['filename']).toBe('report.pdf');
  });

  it('refuses bodies that are not base64 of a PDF, bad file names and unknown fields', async () => {
    const id = await createReadyExam(emu.info, key);
    const pdf = await makePdf('x');
    const b64 = pdf.toString('base64');
    const cases: Record<string, unknown>[] = [
      {},
      { pdf_base64: '' },
      { pdf_base64: Buffer.from('hello, not a pdf').toString('base64') },
      { pdf_base64: Buffer.from('%PDF').toString('base64') },
      { pdf_base64: '@@@@' },
      { pdf_base64: `${b64.slice(0, 40)}\n${b64.slice(40)}` },
      { pdf_base64: b64.slice(0, -1) },
      { pdf_base64: `data:application/pdf;base64,${b64}` },
      { pdf_base64: 12 },
      { pdf_base64: b64, filename: '../etc/passwd' },
      { pdf_base64: b64, filename: 'a\\b.pdf' },
      { pdf_base64: b64, filename: '' },
      { pdf_base64: b64, signed: true },
    ];
    for (const body of cases) {
      const r = await call('POST', `/exams/${id}/report`, body);
      expect(r.status, JSON.stringify(body).slice(0, 70)).toBe(400);
      expect(r.json.error?.code).toBe('validation_error');
    }
    expect((await call('GET', `/exams/${id}/report`)).status).toBe(404);
  });

  it('refuses a PDF above 40 MiB with limit_exceeded', async () => {
    const id = await createReadyExam(emu.info, key);
    const big = Buffer.alloc(40 * 1024 * 1024 + 1, 0x20);
    big.write('%PDF-1.7\n', 0, 'latin1');
    const r = await upload(id, big);
    expect(r.status).toBe(400);
    expect(r.json.error?.code).toBe('limit_exceeded');
  });

  it('signs with a sig_ id and a public verification page; signing again returns the same signature', async () => {
    const id = await createReadyExam(emu.info, key);
    const pdf = await makePdf('Informe firmado');
    await upload(id, pdf, 'firmado.pdf');
    const s = await call('POST', `/exams/${id}/report/sign`);
    expect(s.status).toBe(200);
    expect(s.json['signature_id']).toMatch(/^sig_/);
    expect(s.json['verification_url']).toBe(`${origin}/verify/${s.json['signature_id'] as string}`);
    expect(Number.isNaN(Date.parse(s.json['signed_at'] as string))).toBe(false);
    expect((await call('POST', `/exams/${id}/report/sign`)).json).toEqual(s.json);

    const g = (await call('GET', `/exams/${id}/report`)).json as unknown as ReportGet;
    expect(g.signed).toBe(true);
    expect(g.signature).toEqual(s.json);

    const page = await fetch(s.json['verification_url'] as string);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain(s.json['signature_id'] as string);
    expect(html).toContain(createHash('sha256').update(pdf).digest('hex'));
    expect(html).toContain('firmado.pdf');
    expect((await fetch(`${origin}/verify/sig_doesnotexist`)).status).toBe(404);
  });

  it('replacing the PDF drops the signature and the old download and verification links stop working', async () => {
    const id = await createReadyExam(emu.info, key);
    await upload(id, await makePdf('v1'), 'v1.pdf');
    const sig = await call('POST', `/exams/${id}/report/sign`);
    const oldUrl = ((await call('GET', `/exams/${id}/report`)).json as unknown as ReportGet).url;
    const v2 = await makePdf('v2, corregido');
    const r = await upload(id, v2, 'v2.pdf');
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ filename: 'v2.pdf', signed: false });
    const g = (await call('GET', `/exams/${id}/report`)).json as unknown as ReportGet;
    expect(g).toMatchObject({ filename: 'v2.pdf', signed: false, signature: null });
    expect((await download(g.url)).bytes.equals(v2)).toBe(true);
    expect((await download(oldUrl)).status).toBe(404);
    expect((await fetch(sig.json['verification_url'] as string)).status).toBe(404);
    const again = await call('POST', `/exams/${id}/report/sign`);
    expect(again.json['signature_id']).not.toBe(sig.json['signature_id']);
  });

  it('DELETE answers 200 whether or not a report exists, and sign/GET after it are 404', async () => {
    const id = await createReadyExam(emu.info, key);
    expect((await call('DELETE', `/exams/${id}/report`)).json).toEqual({ deleted: true, already_deleted: true });
    await upload(id, await makePdf('x'));
    const url = ((await call('GET', `/exams/${id}/report`)).json as unknown as ReportGet).url;
    const d = await call('DELETE', `/exams/${id}/report`);
    expect(d.status).toBe(200);
    expect(d.json).toEqual({ deleted: true });
    const d2 = await call('DELETE', `/exams/${id}/report`);
    expect(d2.status).toBe(200);
    expect(d2.json).toEqual({ deleted: true, already_deleted: true });
    for (const [m, p] of [
      ['GET', 'report'],
      ['POST', 'report/sign'],
    ] as const) {
      const r = await call(m, `/exams/${id}/${p}`);
      expect(r.status).toBe(404);
      expect(r.json.error?.code).toBe('not_found');
    }
    expect((await download(url)).status).toBe(404);
    const act = (await call('GET', '/activity?action=report.deleted')).json['activity'] as { resource_id: string }[];
    expect(act.map((a) => a.resource_id)).toContain(id);
  });

  it('records report.published and report.signed activity and a report-signed notification', async () => {
    const id = await createReadyExam(emu.info, key);
    await upload(id, await makePdf('x'));
    await call('POST', `/exams/${id}/report/sign`);
    for (const action of ['report.published', 'report.signed']) {
      const act = (await call('GET', `/activity?action=${action}`)).json['activity'] as { resource_id: string }[];
      expect(
        act.map((a) => a.resource_id),
        action,
      ).toContain(id);
    }
    const notes = (await call('GET', '/notifications')).json['notifications'] as { type: string; exam_id: string }[];
    expect(notes.some((n) => n.type === 'report_signed' && n.exam_id === id)).toBe(true);
  });

  it('scopes: GET needs exams:read, upload, sign and delete need exams:write', async () => {
    const id = await createReadyExam(emu.info, key);
    await upload(id, await makePdf('x'));
    const ro = emu.info.keys.readonly;
    expect((await call('GET', `/exams/${id}/report`, undefined, ro)).status).toBe(200);
    for (const [m, p, body] of [
      ['POST', 'report', { pdf_base64: 'JVBERi0=' }],
      ['POST', 'report/sign'],
      ['DELETE', 'report'],
    ] as const) {
      const r = await call(m, `/exams/${id}/${p}`, body, ro);
      expect(r.status, `${m} ${p}`).toBe(403);
      expect(r.json.error?.['required_scope']).toBe('exams:write');
    }
  });

  it('other accounts, the other mode and deleted exams see 404; sandbox exams have their own reports', async () => {
    const id = await createReadyExam(emu.info, key);
    await upload(id, await makePdf('x'));
    for (const k of [emu.info.keys.free, emu.info.keys.sandbox]) {
      expect((await call('GET', `/exams/${id}/report`, undefined, k)).status).toBe(404);
      expect((await call('DELETE', `/exams/${id}/report`, undefined, k)).status).toBe(404);
    }
    const sb = emu.info.keys.sandbox;
    const sid = await createReadyExam(emu.info, sb);
    expect((await upload(sid, await makePdf('sandbox'), undefined, sb)).status).toBe(201);
    expect((await call('POST', `/exams/${sid}/report/sign`, undefined, sb)).json['signature_id']).toMatch(/^sig_/);
    expect((await call('GET', `/exams/${sid}/report`)).status).toBe(404);

    await call('DELETE', `/exams/${id}`);
    for (const [m, p] of [
      ['GET', 'report'],
      ['POST', 'report/sign'],
      ['DELETE', 'report'],
    ] as const) {
      expect((await call(m, `/exams/${id}/${p}`)).status, `${m} ${p}`).toBe(404);
    }
    expect((await upload(id, await makePdf('x'))).status).toBe(404);
  });
});
