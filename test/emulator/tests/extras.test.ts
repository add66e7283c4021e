import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';
import {
  activityOf,
  bytesFor,
  createExam,
  filesBody,
  put,
  readyExam,
  type Json,
  type UploadUrl,
} from '../../support/emulator/emulator-exams';

describe('emulator: extra takes', () => {
  let emu: EmulatorProcess;
  let pro: string;
  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    pro = emu.info.keys.pro;
  });
  afterAll(async () => {
    await emu.dispose();
  });

  const call = (method: string, path: string, body?: unknown, key = pro) => api(emu.info, key, method, path, body);
  const take = [
    { name: 'toma2/1.dcm', size: 400 },
    { name: 'toma2/2.dcm', size: 600 },
  ];

  it('POST extras answers 201 {index, upload_urls, confirm_url}; confirm stores it, updates extra_series and storage, emits exam.extra_added', async () => {
    const e = await readyExam(emu.info, pro, filesBody('CBCT con tomas', [{ name: 'a.dcm', size: 100 }]));
    const r = await call('POST', `/exams/${e.id}/extras`, { label: 'Boca abierta', files: take });
    expect(r.status).toBe(201);
    expect(r.json['index']).toBe(1);
    expect(r.json['confirm_url']).toBe(`${emu.info.base_url}/exams/${e.id}/extras/1/confirm`);
    const urls = r.json['upload_urls'] as UploadUrl[];
    expect(urls.map((u) => u.name)).toEqual(take.map((f) => f.name));

    const early = await call('POST', `/exams/${e.id}/extras/1/confirm`);
    expect(early.status).toBe(409);
    expect(early.json.error?.code).toBe('upload_incomplete');
    expect(early.json.error?.['missing']).toEqual(take.map((f) => f.name));
    for (const [i, u] of urls.entries())
      expect((await put(u.url, bytesFor(u.name, take[i]?.size ?? 0))).status).toBe(200);

    const confirmUrl = r.json['confirm_url'] as string;
    const res = await fetch(confirmUrl, {
      method: 'POST',
      headers: { Authorization: `Bearer ${pro}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ label: 'Boca abierta (final)' }),
    });
    expect(res.status).toBe(200);
    const exam = (await res.json()) as Json;
    expect(exam['storage']).toEqual({ bytes: 1100 });
    expect(exam['extra_series']).toEqual([
      expect.objectContaining({
        index: 1,
        label: 'Boca abierta (final)',
        status: 'ready',
        file_count: 2,
        storage_bytes: 1000,
      }),
    ]);
    const again = await call('POST', `/exams/${e.id}/extras/1/confirm`);
    expect(again.status).toBe(200);
    expect(again.json['storage']).toEqual({ bytes: 1100 });
    const events = await activityOf(emu.info, pro, 'exam.extra_added', e.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toEqual({
      exam_id: e.id,
      index: 1,
      label: 'Boca abierta (final)',
      file_count: 2,
      storage_bytes: 1000,
    });
    // Its URLs close once confirmed.
    expect((await put(urls[0]?.url ?? '', bytesFor(take[0]?.name ?? '', 400))).status).toBe(409);
  });

  it('an extra can be uploaded while the main series is still uploading; atm exams take extras too', async () => {
    const e = await createExam(emu.info, pro, filesBody('ATM', [{ name: 'a.dcm', size: 10 }], { exam_type: 'atm' }));
    const r = await call('POST', `/exams/${e.id}/extras`, { label: 'Cerrada', files: [{ name: 'x.dcm', size: 5 }] });
    expect(r.status).toBe(201);
    const u = (r.json['upload_urls'] as UploadUrl[])[0];
    expect((await put(u?.url ?? '', bytesFor('x.dcm', 5))).status).toBe(200);
    const c = await call('POST', `/exams/${e.id}/extras/1/confirm`);
    expect(c.json).toMatchObject({ status: 'uploading', storage: { bytes: 5 } });
  });

  it('at most 2 extras: a third → 409 limit_exceeded', async () => {
    const e = await createExam(emu.info, pro, filesBody('Tres tomas'));
    expect((await call('POST', `/exams/${e.id}/extras`, { label: 'Dos', files: take })).json['index']).toBe(1);
    expect((await call('POST', `/exams/${e.id}/extras`, { label: 'Tres', files: take })).json['index']).toBe(2);
    const third = await call('POST', `/exams/${e.id}/extras`, { label: 'Cuatro', files: take });
    expect(third.status).toBe(409);
    expect(third.json.error?.code).toBe('limit_exceeded');
  });

  it('radiografia and mesh exams refuse extras with 400', async () => {
    for (const t of ['radiografia', 'mesh']) {
      const e = await createExam(emu.info, pro, filesBody(t, undefined, { exam_type: t }));
      const r = await call('POST', `/exams/${e.id}/extras`, { label: 'No', files: take });
      expect(r.status, t).toBe(400);
      expect(r.json.error?.code).toBe('validation_error');
    }
  });

  it('validates label and files; unknown exam or index → 404; readonly key → 403', async () => {
    const e = await createExam(emu.info, pro, filesBody('Validación'));
    for (const body of [
      { files: take },
      { label: '', files: take },
      { label: 'x'.repeat(101), files: take },
      { label: 'ok', files: [] },
      { label: 'ok' },
      { label: 'ok', files: [{ name: '../x', size: 1 }] },
      { label: 'ok', files: take, extra: 1 },
    ]) {
      const r = await call('POST', `/exams/${e.id}/extras`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    const many = Array.from({ length: 5001 }, (_, i) => ({ name: `${i}`, size: 1 }));
    expect((await call('POST', `/exams/${e.id}/extras`, { label: 'Muchos', files: many })).json.error?.code).toBe(
      'limit_exceeded',
    );
    expect((await call('POST', '/exams/exm_nope/extras', { label: 'x', files: take })).status).toBe(404);
    expect((await call('POST', `/exams/${e.id}/extras/1/confirm`)).status).toBe(404);
    expect((await call('POST', `/exams/${e.id}/extras/abc/confirm`)).status).toBe(404);
    const ro = await call('POST', `/exams/${e.id}/extras`, { label: 'x', files: take }, emu.info.keys.readonly);
    expect(ro.status).toBe(403);
    expect(ro.json.error?.code).toBe('insufficient_scope');
  });

  it('sandbox extras leave no activity', async () => {
    const sb = emu.info.keys.sandbox;
    const e = await createExam(emu.info, sb, filesBody('Prueba'));
    const r = await call('POST', `/exams/${e.id}/extras`, { label: 'x', files: [{ name: 'x', size: 1 }] }, sb);
    expect(r.status).toBe(201);
    await put((r.json['upload_urls'] as UploadUrl[])[0]?.url ?? '', bytesFor('x', 1));
    expect((await call('POST', `/exams/${e.id}/extras/1/confirm`, undefined, sb)).status).toBe(200);
    expect(await activityOf(emu.info, pro, 'exam.extra_added', e.id)).toEqual([]);
  });
});
