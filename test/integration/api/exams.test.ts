import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import type { ApiError } from '@main/core/api/http/api-errors';
import { clientFor, fileBytes, must, proClientScene, readyExam, uploadFiles } from '../../support/harness/api-clients';

/** An uncompressed ZIP of `files`, built in memory. */
async function zipOf(files: { name: string; size: number }[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const f of files) zip.addBuffer(fileBytes(f.name, f.size), f.name, { compress: false });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('client: exams and their sub-resources against the emulator', () => {
  const ctx = proClientScene();

  it('creates a files-mode exam with one upload URL per file, in order, then confirms it ready', async () => {
    const files = [
      { name: 'S1/IM0001.dcm', size: 1500 },
      { name: 'S1/IM0002.dcm', size: 2500 },
      { name: 'S1/IM0003.dcm', size: 10 },
    ];
    const created = await ctx.client.exams.create({
      name: 'CBCT 3D maxilar',
      patient_name: 'María José Peña',
      patient_id: '11.111.111-1',
      birth_date: '1980-01-31',
      files,
    });
    expect(created.id).toMatch(/^exm_/);
    expect(created.status).toBe('uploading');
    expect(created.upload_urls?.map((u) => u.name)).toEqual(files.map((f) => f.name));
    await uploadFiles(created, files);
    const ready = await ctx.client.exams.confirm(created.id);
    expect(ready.status).toBe('ready');
    expect(ready.storage?.bytes).toBe(4010);
    // Confirm is idempotent: once ready it answers the exam again.
    expect((await ctx.client.exams.confirm(created.id)).status).toBe('ready');
    const got = await ctx.client.exams.get(created.id);
    expect(got.patient_name).toBe('María José Peña');
    expect(typeof got.share_url).toBe('string');
    expect(typeof got.viewer_url).toBe('string');
    expect(got.public_page_pin).toMatch(/^\d{6}$/);
  });

  it('creates a zip-mode exam with a single URL and has the service unpack it', async () => {
    const entries = [
      { name: 'DICOM/IM0001', size: 4000 },
      { name: 'DICOM/IM0002', size: 4000 },
      { name: 'DICOMDIR', size: 300 },
    ];
    const zip = await zipOf(entries);
    const created = await ctx.client.exams.create({ name: 'Zip', upload_mode: 'zip', zip_size_bytes: zip.length });
    expect(created.upload_url?.url).toMatch(/^http/);
    expect(created.upload_urls ?? []).toHaveLength(0);
    const put = await fetch(must(created.upload_url).url, {
      method: 'PUT',
      body: new Uint8Array(zip),
      headers: { 'Content-Length': String(zip.length) },
    });
    expect(put.status).toBe(200);
    const done = await ctx.client.exams.processZip(created.id);
    expect(done.status).toBe('ready');
    expect(done.files_stored).toBe(3);
    expect((await ctx.client.exams.processZip(created.id)).status).toBe('ready');
  });

  it('changes only the fields given in an update', async () => {
    const { exam } = await readyExam(ctx.client, { name: 'Antes', patient_name: 'Pedro Soto' });
    const updated = await ctx.client.exams.update(exam.id, { name: 'Después', reason: 'Control implante 3.6' });
    expect(updated.name).toBe('Después');
    expect(updated.reason).toBe('Control implante 3.6');
    expect(updated.patient_name).toBe('Pedro Soto');
    await expect(ctx.client.exams.update(exam.id, {})).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('deletes an exam, says already_deleted the second time, and then reads 404', async () => {
    const { exam } = await readyExam(ctx.client);
    expect(await ctx.client.exams.remove(exam.id)).toMatchObject({ deleted: true, exam_id: exam.id });
    const again = await ctx.client.exams.remove(exam.id);
    expect(again.deleted).toBe(true);
    expect(again.already_deleted).toBe(true);
    await expect(ctx.client.exams.get(exam.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('lists one page and iterates every exam newest first without repeats', async () => {
    const c = clientFor(ctx.emulator, 'clinica').client;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await c.exams.create({ name: `Lista ${i}`, files: [{ name: 'a.dcm', size: 1 }] })).id);
    const page = await c.exams.list({ limit: 2, offset: 1 });
    expect(page.exams.map((e) => e.id)).toEqual([ids[3], ids[2]]);
    expect(page.total).toBe(5);
    const seen: string[] = [];
    for await (const e of c.exams.iterate({ pageSize: 2 })) seen.push(e.id);
    expect(seen).toEqual([...ids].reverse());
    await expect(c.exams.list({ limit: 101 })).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('shares a ready exam by e-mail and the mail goes out', async () => {
    const { exam } = await readyExam(ctx.client);
    const r = await ctx.client.exams.share(exam.id, {
      to: 'dra.rojas@clinica.cl',
      message: 'Adjunto examen',
      locale: 'es',
    });
    expect(r.sent).toBe(true);
    expect(typeof r.email_id).toBe('string');
    const mail = await ctx.emulator.control<{ mail: unknown[] }>('GET', '/mail?to=dra.rojas@clinica.cl');
    expect(mail.mail.length).toBe(1);
  });

  it('reads the access PIN and rotates it, the old PIN failing at once', async () => {
    const { exam } = await readyExam(ctx.client);
    const pin = await ctx.client.exams.getAccessPin(exam.id);
    expect(pin.pin).toMatch(/^\d{6}$/);
    expect(pin.clinic_slug).toBeTruthy();
    expect(pin.public_url).toMatch(/^http/);
    expect((await fetch(`${pin.public_url}?pin=${pin.pin}`)).status).toBe(200);
    const rotated = await ctx.client.exams.rotateAccessPin(exam.id);
    expect(rotated.pin).toMatch(/^\d{6}$/);
    expect(rotated.pin).not.toBe(pin.pin);
    expect(typeof rotated.rotated_at).toBe('string');
    expect((await ctx.client.exams.getAccessPin(exam.id)).pin).toBe(rotated.pin);
    expect((await fetch(`${pin.public_url}?pin=${pin.pin}`)).status).toBe(403);
  });

  it('enables, reads, revokes and re-enables the embed with a fresh token', async () => {
    const { exam } = await readyExam(ctx.client);
    const off = await ctx.client.exams.getEmbed(exam.id);
    expect(off.enabled).toBe(false);
    expect(off.token ?? null).toBeNull();
    const on = await ctx.client.exams.enableEmbed(exam.id, {
      title: 'Tomografía',
      show_year: true,
      show_study_type: false,
    });
    expect(on.embed_url).toMatch(/^http/);
    expect(on.iframe_snippet).toContain('<iframe');
    expect((await fetch(on.embed_url)).status).toBe(200);
    const state = await ctx.client.exams.getEmbed(exam.id);
    expect(state.enabled).toBe(true);
    expect(state.snippet).toContain('<iframe');
    expect(state.view_count).toBe(1);
    const revoked = await ctx.client.exams.revokeEmbed(exam.id);
    expect(revoked.enabled).toBe(false);
    expect((await fetch(on.embed_url)).status).toBe(404);
    const again = await ctx.client.exams.enableEmbed(exam.id);
    expect(again.embed_url).not.toBe(on.embed_url);
  });

  it('adds and confirms extra takes, at most two, and refuses them on radiographs', async () => {
    const { exam } = await readyExam(ctx.client);
    const files = [{ name: 'extra/IM1.dcm', size: 700 }];
    const extra = await ctx.client.exams.createExtra(exam.id, { label: 'Toma con boca abierta', files });
    expect(extra.index).toBe(1);
    expect(extra.upload_urls.map((u) => u.name)).toEqual(['extra/IM1.dcm']);
    await uploadFiles(extra, files);
    const after = await ctx.client.exams.confirmExtra(exam.id, 1, { label: 'Boca abierta' });
    expect(after.extra_series?.[0]).toMatchObject({ index: 1, label: 'Boca abierta' });
    expect((await ctx.client.exams.confirmExtra(exam.id, 1)).extra_series).toHaveLength(1);
    await ctx.client.exams.createExtra(exam.id, { label: 'Segunda', files });
    await expect(ctx.client.exams.createExtra(exam.id, { label: 'Tercera', files })).rejects.toMatchObject({
      code: 'limit_exceeded',
    });
    const rx = await readyExam(ctx.client, { exam_type: 'radiografia' });
    await expect(ctx.client.exams.createExtra(rx.exam.id, { label: 'x', files })).rejects.toMatchObject({
      code: 'validation_error',
    });
  });

  it('answers ThumbnailNotReadyError until the thumbnail exists, then its image bytes', async () => {
    const { exam } = await readyExam(ctx.client);
    const early = await ctx.client.exams.thumbnail(exam.id).catch((e: unknown) => e);
    expect(early).toMatchObject({ code: 'thumbnail_not_ready' });
    expect((early as ApiError).code).toBe('thumbnail_not_ready');
    await ctx.emulator.control('POST', `/exams/${exam.id}/thumbnail`);
    const thumb = await ctx.client.exams.thumbnail(exam.id);
    expect(thumb.bytes).toBeInstanceOf(Uint8Array);
    expect(thumb.contentType).toMatch(/^image\/(png|jpeg)$/);
    expect([...thumb.bytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    // Same bytes twice: the body is binary, not text decoded and re-encoded.
    const again = await ctx.client.exams.thumbnail(exam.id);
    expect(createHash('sha256').update(again.bytes).digest('hex')).toBe(
      createHash('sha256').update(thumb.bytes).digest('hex'),
    );
  });

  it('finds the other exams of the same patient', async () => {
    const a = await ctx.client.exams.create({
      name: 'Pano 2025',
      patient_name: 'Ana Núñez',
      patient_id: '22.222.222-2',
      files: [{ name: 'a', size: 1 }],
    });
    const b = await ctx.client.exams.create({
      name: 'CBCT 2026',
      patient_name: 'Ana Núñez',
      patient_id: '22.222.222-2',
      files: [{ name: 'a', size: 1 }],
    });
    const others = await ctx.client.exams.patientExams(b.id);
    expect(others.exams.map((e) => e.id)).toContain(a.id);
    expect(others.exams.map((e) => e.id)).not.toContain(b.id);
  });
});
