import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ApiError } from '@main/core/api/http/api-errors';
import { PNG_1X1_BASE64, proClientScene, readyExam } from '../../support/harness/api-clients';

const isPdf = (b: Uint8Array): boolean => Buffer.from(b.subarray(0, 5)).toString('latin1') === '%PDF-';

describe('client: informed consent against the emulator', () => {
  const ctx = proClientScene();

  it('reads null before any consent, and the blank PDF as bytes', async () => {
    const { exam } = await readyExam(ctx.client);
    expect(await ctx.client.consent.get(exam.id)).toBeNull();
    const blank = await ctx.client.consent.pdf(exam.id, 'blank');
    expect(blank).toBeInstanceOf(Uint8Array);
    expect(isPdf(blank)).toBe(true);
  });

  it('initializes, re-initializes while pending, signs in person, and the hash is the SHA-256 of the signed PDF', async () => {
    const { exam } = await readyExam(ctx.client, { patient_name: 'Juan Carlos Muñoz' });
    const first = await ctx.client.consent.init(exam.id, { country_code: 'CL', locale: 'es' });
    expect(first.status).toBe('pending');
    expect((await ctx.client.consent.init(exam.id, { locale: 'en' })).status).toBe('pending');
    await expect(ctx.client.consent.pdf(exam.id, 'signed')).rejects.toMatchObject({ code: 'conflict' });
    const signed = await ctx.client.consent.signInPerson(exam.id, {
      signer_name: 'Juan Carlos Muñoz',
      signer_rut: '12.345.678-5',
      patient_birth_date: '1980-01-31',
      signature_image: PNG_1X1_BASE64,
      accepted: true,
    });
    expect(signed.status).toBe('signed');
    expect(signed.signing_method).toBe('in_person');
    expect(typeof signed.signed_at).toBe('string');
    const pdf = await ctx.client.consent.pdf(exam.id, 'signed');
    expect(isPdf(pdf)).toBe(true);
    expect(signed.hash).toBe(createHash('sha256').update(pdf).digest('hex'));
    expect((await ctx.client.consent.get(exam.id))?.hash).toBe(signed.hash);
    await expect(ctx.client.consent.init(exam.id)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('refuses a bad RUT or a signature that is not a PNG with ValidationError', async () => {
    const { exam } = await readyExam(ctx.client);
    await ctx.client.consent.init(exam.id, { country_code: 'CL' });
    const badRut = await ctx.client.consent
      .signInPerson(exam.id, {
        signer_name: 'A',
        signer_rut: '12.345.678-9',
        signature_image: PNG_1X1_BASE64,
        accepted: true,
      })
      .catch((e: unknown) => e);
    expect(badRut).toMatchObject({ code: 'validation_error' });
    expect((badRut as ApiError).details.map((d) => d.field)).toContain('signer_rut');
    const notPng = await ctx.client.consent
      .signInPerson(exam.id, {
        signer_name: 'A',
        signer_rut: '12.345.678-5',
        signature_image: Buffer.from('GIF89a').toString('base64'),
        accepted: true,
      })
      .catch((e: unknown) => e);
    expect(notPng).toMatchObject({ code: 'validation_error' });
  });

  it('e-mails a signing link, and the remote signature completes the consent', async () => {
    const { exam } = await readyExam(ctx.client);
    const sent = await ctx.client.consent.sendEmail(exam.id, { to: 'paciente@correo.cl', patient_name: 'Rosa Díaz' });
    expect(sent.sent).toBe(true);
    expect(sent.sign_url).toMatch(/^http/);
    expect((await ctx.emulator.control<{ mail: unknown[] }>('GET', '/mail?to=paciente@correo.cl')).mail).toHaveLength(
      1,
    );
    await ctx.emulator.control('POST', `/consent/${exam.id}/sign-remote`, { signer_name: 'Rosa Díaz' });
    const c = await ctx.client.consent.get(exam.id);
    expect(c?.status).toBe('signed');
    expect(c?.signing_method).toBe('email');
    expect(c?.hash).toBe(
      createHash('sha256')
        .update(await ctx.client.consent.pdf(exam.id, 'signed'))
        .digest('hex'),
    );
  });
});
