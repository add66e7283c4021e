import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../main/core/api/client';
import { EmulatorProcess } from '../../support/emulator';
import { clientFor, minimalPdf, must, readyExam } from './helpers';

describe('client: radiology reports against the emulator', () => {
  let emu: EmulatorProcess;
  let client: ApiClient;
  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    client = clientFor(emu, 'pro').client;
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('uploads a PDF, reads its download URL, signs it and deletes it', async () => {
    const { exam } = await readyExam(client);
    const pdf = minimalPdf('Informe CBCT');
    const up = await client.reports.upload(exam.id, { pdf, filename: 'informe.pdf' });
    expect(up.size_bytes).toBe(pdf.length);
    expect(up.signed).toBe(false);
    const r = await client.reports.get(exam.id);
    expect(r.filename).toBe('informe.pdf');
    expect(r.signed).toBe(false);
    expect(r.signature ?? null).toBeNull();
    const download = await fetch(r.url);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);

    const sig = await client.reports.sign(exam.id);
    expect(sig.signature_id).toBeTruthy();
    expect(sig.verification_url).toMatch(/^http/);
    expect((await fetch(must(sig.verification_url))).status).toBe(200);
    const signed = await client.reports.get(exam.id);
    expect(signed.signed).toBe(true);
    expect(signed.signature?.signature_id).toBe(sig.signature_id);

    expect((await client.reports.remove(exam.id)).deleted).toBe(true);
    await expect(client.reports.get(exam.id)).rejects.toMatchObject({ code: 'not_found' });
    const again = await client.reports.remove(exam.id);
    expect(again.deleted).toBe(true);
    expect(again.already_deleted).toBe(true);
  });

  it('accepts an already base64-encoded PDF and refuses what is not a PDF', async () => {
    const { exam } = await readyExam(client);
    const b64 = Buffer.from(minimalPdf()).toString('base64');
    expect((await client.reports.upload(exam.id, { pdf_base64: b64 })).signed).toBe(false);
    await expect(client.reports.upload(exam.id, { pdf: new TextEncoder().encode('hello') })).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('cannot sign when there is no report', async () => {
    const { exam } = await readyExam(client);
    await expect(client.reports.sign(exam.id)).rejects.toMatchObject({ code: 'not_found' });
  });
});
