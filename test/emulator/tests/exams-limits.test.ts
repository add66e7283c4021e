import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';
import { createExam, filesBody, type Json } from '../../support/emulator/emulator-exams';

describe('emulator: plan limits of exams (Free plan)', () => {
  let emu: EmulatorProcess;
  let free: string;
  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    free = emu.info.keys.free;
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('radiografia on Free → 403 plan_required; other types are fine', async () => {
    const r = await api(
      emu.info,
      free,
      'POST',
      '/exams',
      filesBody('Panorámica', undefined, { exam_type: 'radiografia' }),
    );
    expect(r.status).toBe(403);
    expect(r.json.error?.code).toBe('plan_required');
    const mesh = await api(emu.info, free, 'POST', '/exams', filesBody('Modelo', undefined, { exam_type: 'mesh' }));
    expect(mesh.status).toBe(201);
  });

  it('declared bytes beyond the remaining storage (2 GiB on Free) → 409 limit_exceeded', async () => {
    const r = await api(
      emu.info,
      free,
      'POST',
      '/exams',
      filesBody('Enorme', [{ name: 'a.dcm', size: 2 * 1024 ** 3 }]),
    );
    expect(r.status).toBe(409);
    expect(r.json.error?.code).toBe('limit_exceeded');
    // Reserved bytes of an open upload count: 1.5 GiB fits once, not twice.
    const first = await api(
      emu.info,
      free,
      'POST',
      '/exams',
      filesBody('Grande', [{ name: 'a.dcm', size: 1.5 * 1024 ** 3 }]),
    );
    expect(first.status).toBe(201);
    const second = await api(emu.info, free, 'POST', '/exams', {
      name: 'ZIP grande 2',
      upload_mode: 'zip',
      zip_size_bytes: 1024 ** 3,
    });
    expect(second.status).toBe(409);
    expect(second.json.error?.code).toBe('limit_exceeded');
    expect((await api(emu.info, free, 'DELETE', `/exams/${first.json['id'] as string}`)).status).toBe(200);
  });

  it('the exam count stops at 25 on Free: the 26th → 409 limit_exceeded; deleting one frees a place', async () => {
    const me = await api(emu.info, free, 'GET', '/me');
    const have = (me.json['exams'] as Json)['count'] as number;
    const ids: string[] = [];
    for (let i = have; i < 25; i++)
      ids.push((await createExam(emu.info, free, filesBody(`Examen ${i}`, [{ name: 'x.dcm', size: 1 }]))).id);
    expect(((await api(emu.info, free, 'GET', '/me')).json['exams'] as Json)['count']).toBe(25);
    const over = await api(emu.info, free, 'POST', '/exams', filesBody('Número 26', [{ name: 'x.dcm', size: 1 }]));
    expect(over.status).toBe(409);
    expect(over.json.error?.code).toBe('limit_exceeded');
    await api(emu.info, free, 'DELETE', `/exams/${ids[0] ?? ''}`);
    expect(
      (await api(emu.info, free, 'POST', '/exams', filesBody('Cabe de nuevo', [{ name: 'x.dcm', size: 1 }]))).status,
    ).toBe(201);
  });
});
