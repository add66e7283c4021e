import { describe, expect, it } from 'vitest';
import { minimalPdf, must, proClientScene, readyExam } from '../../support/harness/api-clients';

describe('client: radiology reports against the emulator', () => {
  const ctx = proClientScene();

  it('uploads a PDF, reads its download URL, signs it and deletes it', async () => {
    const { exam } = await readyExam(ctx.client);
    const pdf = minimalPdf('Informe CBCT');
    const up = await ctx.client.reports.upload(exam.id, { pdf, filename: 'informe.pdf' });
    expect(up.size_bytes).toBe(pdf.length);
    expect(up.signed).toBe(false);
    const r = await ctx.client.reports.get(exam.id);
    expect(r.filename).toBe('informe.pdf');
    expect(r.signed).toBe(false);
    expect(r.signature ?? null).toBeNull();
    const download = await fetch(r.url);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);

    const sig = await ctx.client.reports.sign(exam.id);
    expect(sig.signature_id).toBeTruthy();
    expect(sig.verification_url).toMatch(/^http/);
    expect((await fetch(must(sig.verification_url))).status).toBe(200);
    const signed = await ctx.client.reports.get(exam.id);
    expect(signed.signed).toBe(true);
    expect(signed.signature?.signature_id).toBe(sig.signature_id);

    expect((await ctx.client.reports.remove(exam.id)).deleted).toBe(true);
    await expect(ctx.client.reports.get(exam.id)).rejects.toMatchObject({ code: 'not_found' });
    const again = await ctx.client.reports.remove(exam.id);
    expect(again.deleted).toBe(true);
    expect(again.already_deleted).toBe(true);
  });

  it('accepts an already base64-encoded PDF and refuses what is not a PDF', async () => {
    const { exam } = await readyExam(ctx.client);
    const b64 = Buffer.from(minimalPdf()).toString('base64');
    expect((await ctx.client.reports.upload(exam.id, { pdf_base64: b64 })).signed).toBe(false);
    await expect(ctx.client.reports.upload(exam.id, { pdf: new TextEncoder().encode('hello') })).rejects.toMatchObject({
      code: 'validation_error',
    });
  });

  it('cannot sign when there is no report', async () => {
    const { exam } = await readyExam(ctx.client);
    await expect(ctx.client.reports.sign(exam.id)).rejects.toMatchObject({ code: 'not_found' });
  });
});
