import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';
import {
  activityOf,
  createExam,
  filesBody,
  readyExam,
  uploadAll,
  type Json,
} from '../../support/emulator/emulator-exams';

/** Parses a PNG far enough to prove it is real: signature, chunk CRCs, IHDR size, inflatable IDAT. */
function readPng(buf: Buffer): { width: number; height: number; pixels: number } {
  expect(buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  let off = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    let c = 0xffffffff;
    for (const b of buf.subarray(off + 4, off + 8 + len)) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    }
    expect(buf.readUInt32BE(off + 8 + len)).toBe((c ^ 0xffffffff) >>> 0);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
    }
    if (type === 'IDAT') idat.push(data);
    off += 12 + len;
  }
  return { width, height, pixels: inflateSync(Buffer.concat(idat)).length };
}

describe('emulator: exams (create, list, get, patch, delete, confirm, thumbnail, patient-exams)', () => {
  let emu: EmulatorProcess;
  let pro: string;
  let dataDir: string;
  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    pro = emu.info.keys.pro;
    dataDir = emu.dataDir;
  });
  afterAll(async () => {
    await emu.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (method: string, path: string, body?: unknown, key = pro) => api(emu.info, key, method, path, body);

  it('POST /exams answers 201 with the README exam object and one upload URL per file, in order', async () => {
    const files = [
      { name: 'serie/b.dcm', size: 10 },
      { name: 'serie/a.dcm', size: 20 },
      { name: 'c.dcm', size: 0 },
    ];
    const r = await call('POST', '/exams', {
      name: 'CBCT completo',
      patient_name: 'Ana Pérez',
      patient_id: '12.345.678-5',
      birth_date: '1980-01-31',
      reason: 'Implante 36',
      expiration_days: 30,
      files,
    });
    expect(r.status).toBe(201);
    const e = r.json;
    expect(e['id']).toMatch(/^exm_/);
    for (const k of [
      'id',
      'name',
      'exam_type',
      'patient_name',
      'patient_id',
      'birth_date',
      'reason',
      'expiration_days',
      'expires_at',
      'radiograph_subtype',
      'status',
      'upload_mode',
      'file_count',
      'storage',
      'counters',
      'share_url',
      'viewer_url',
      'share_password',
      'public_page_pin',
      'share_token',
      'extra_series',
      'thumbnail_ready',
      'test_mode',
      'created_at',
      'updated_at',
      'confirmed_at',
    ]) {
      expect(e).toHaveProperty(k);
    }
    expect(e).toMatchObject({
      exam_type: 'cbct',
      status: 'uploading',
      upload_mode: 'files',
      file_count: 3,
      storage: { bytes: 0 },
      counters: { views: 0, shares: 0, downloads: 0 },
      radiograph_subtype: null,
      test_mode: false,
      thumbnail_ready: false,
      confirmed_at: null,
      extra_series: [],
    });
    expect(e['public_page_pin']).toMatch(/^\d{6}$/);
    expect(Date.parse(e['expires_at'] as string) - Date.parse(e['created_at'] as string)).toBe(30 * 86_400_000);
    const urls = e['upload_urls'] as { name: string; url: string; expires_at: string }[];
    expect(urls.map((u) => u.name)).toEqual(files.map((f) => f.name));
    for (const u of urls) {
      expect(u.url).toMatch(/\/storage\/exm_[a-z0-9]+\/[^?]+\?expires=\d+&sig=[0-9a-f]{64}$/);
      expect(Date.parse(u.expires_at)).toBeGreaterThan(Date.now() + 3500_000);
    }
    expect(e['share_url']).toBe(`${new URL(emu.info.base_url).origin}/s/${e['share_token'] as string}`);
  });

  it('defaults: exam_type cbct, upload_mode files, optional fields null', async () => {
    const e = await createExam(emu.info, pro, filesBody('Solo nombre'));
    expect(e).toMatchObject({
      exam_type: 'cbct',
      upload_mode: 'files',
      patient_name: null,
      patient_id: null,
      birth_date: null,
      reason: null,
      expiration_days: null,
      expires_at: null,
    });
  });

  it('accepts every exam_type on Pro and expiration_days null', async () => {
    for (const t of ['cbct', 'radiografia', 'mesh', 'atm']) {
      const e = await createExam(
        emu.info,
        pro,
        filesBody(`Tipo ${t}`, undefined, { exam_type: t, expiration_days: null }),
      );
      expect(e['exam_type']).toBe(t);
      expect(e['expires_at']).toBeNull();
    }
  });

  it('zip mode answers a single upload_url and no upload_urls', async () => {
    const e = await createExam(emu.info, pro, { name: 'ZIP', upload_mode: 'zip', zip_size_bytes: 1234 });
    expect(e.upload_url?.url).toMatch(/\/storage\/exm_[a-z0-9]+\/upload\.zip\?expires=/);
    expect(e.upload_urls).toBeUndefined();
    expect(e['upload_mode']).toBe('zip');
  });

  const invalid: [string, Json, string][] = [
    ['name missing', { files: [{ name: 'a', size: 1 }] }, 'name'],
    ['name blank', { name: '   ', files: [{ name: 'a', size: 1 }] }, 'name'],
    ['name 201 characters', { name: 'n'.repeat(201), files: [{ name: 'a', size: 1 }] }, 'name'],
    ['name not a string', { name: 5, files: [{ name: 'a', size: 1 }] }, 'name'],
    ['unknown exam_type', { name: 'x', exam_type: 'mri', files: [{ name: 'a', size: 1 }] }, 'exam_type'],
    ['birth_date not a date', { name: 'x', birth_date: '31/01/1980', files: [{ name: 'a', size: 1 }] }, 'birth_date'],
    ['birth_date impossible', { name: 'x', birth_date: '2021-02-30', files: [{ name: 'a', size: 1 }] }, 'birth_date'],
    [
      'birth_date in the future',
      { name: 'x', birth_date: '2999-01-01', files: [{ name: 'a', size: 1 }] },
      'birth_date',
    ],
    ['expiration_days zero', { name: 'x', expiration_days: 0, files: [{ name: 'a', size: 1 }] }, 'expiration_days'],
    [
      'expiration_days fractional',
      { name: 'x', expiration_days: 1.5, files: [{ name: 'a', size: 1 }] },
      'expiration_days',
    ],
    ['upload_mode unknown', { name: 'x', upload_mode: 'ftp', files: [{ name: 'a', size: 1 }] }, 'upload_mode'],
    ['files missing in files mode', { name: 'x' }, 'files'],
    ['files empty', { name: 'x', files: [] }, 'files'],
    ['file size negative', { name: 'x', files: [{ name: 'a', size: -1 }] }, 'files.0.size'],
    ['file size fractional', { name: 'x', files: [{ name: 'a', size: 1.5 }] }, 'files.0.size'],
    ['file name with ..', { name: 'x', files: [{ name: 'a/../../etc/passwd', size: 1 }] }, 'files.0.name'],
    ['file name absolute', { name: 'x', files: [{ name: '/etc/passwd', size: 1 }] }, 'files.0.name'],
    ['file name with backslash', { name: 'x', files: [{ name: 'a\\b.dcm', size: 1 }] }, 'files.0.name'],
    ['file name with NUL', { name: 'x', files: [{ name: 'a\u0000b', size: 1 }] }, 'files.0.name'],
    ['file name over 1024 characters', { name: 'x', files: [{ name: 'f'.repeat(1025), size: 1 }] }, 'files.0.name'],
    [
      'duplicate file names',
      {
        name: 'x',
        files: [
          { name: 'a', size: 1 },
          { name: 'a', size: 2 },
        ],
      },
      'files.1.name',
    ],
    [
      'zip_size_bytes in files mode',
      { name: 'x', files: [{ name: 'a', size: 1 }], zip_size_bytes: 10 },
      'zip_size_bytes',
    ],
    [
      'files in zip mode',
      { name: 'x', upload_mode: 'zip', zip_size_bytes: 10, files: [{ name: 'a', size: 1 }] },
      'files',
    ],
    ['zip_size_bytes missing in zip mode', { name: 'x', upload_mode: 'zip' }, 'zip_size_bytes'],
    ['zip_size_bytes zero', { name: 'x', upload_mode: 'zip', zip_size_bytes: 0 }, 'zip_size_bytes'],
    ['unknown field', { name: 'x', files: [{ name: 'a', size: 1 }], colour: 'red' }, 'body'],
  ];
  it.each(invalid)('POST /exams refuses %s with 400 validation_error naming the field', async (_what, body, field) => {
    const r = await call('POST', '/exams', body);
    expect(r.status).toBe(400);
    expect(r.json.error?.code).toBe('validation_error');
    expect((r.json.error?.['details'] as { field: string }[]).map((d) => d.field)).toContain(field);
  });

  it('POST /exams refuses a non-object or malformed body with 400', async () => {
    expect((await call('POST', '/exams', [1, 2])).status).toBe(400);
    const bad = await call('POST', '/exams', '{"name":');
    expect(bad.status).toBe(400);
    expect(bad.json.error?.code).toBe('validation_error');
  });

  it('name of exactly 200 characters is accepted (counted as characters, not bytes)', async () => {
    expect((await createExam(emu.info, pro, filesBody('ñ'.repeat(200))))['name']).toBe('ñ'.repeat(200));
  });

  it('files: 5000 accepted with 5000 URLs; 5001 → 400 limit_exceeded', async () => {
    const files = Array.from({ length: 5000 }, (_, i) => ({ name: `s/${i}.dcm`, size: 1 }));
    const ok = await createExam(emu.info, pro, { name: 'Cinco mil', files });
    expect(ok.upload_urls).toHaveLength(5000);
    const over = await call('POST', '/exams', {
      name: 'Demasiados',
      files: [...files, { name: 's/5000.dcm', size: 1 }],
    });
    expect(over.status).toBe(400);
    expect(over.json.error?.code).toBe('limit_exceeded');
  });

  it('zip_size_bytes: 1073741824 accepted; one byte more → 400 limit_exceeded', async () => {
    const ok = await call('POST', '/exams', { name: 'GB', upload_mode: 'zip', zip_size_bytes: 1073741824 });
    expect(ok.status).toBe(201);
    const over = await call('POST', '/exams', { name: 'GB+1', upload_mode: 'zip', zip_size_bytes: 1073741825 });
    expect(over.status).toBe(400);
    expect(over.json.error?.code).toBe('limit_exceeded');
  });

  it('emits exam.created with the documented data', async () => {
    const e = await createExam(
      emu.info,
      pro,
      filesBody('Evento creado', undefined, { patient_name: 'Luis Soto', patient_id: 'P-1' }),
    );
    const [entry] = await activityOf(emu.info, pro, 'exam.created', e.id);
    expect(entry?.data).toEqual({
      exam_id: e.id,
      name: 'Evento creado',
      exam_type: 'cbct',
      status: 'uploading',
      patient_name: 'Luis Soto',
      patient_id: 'P-1',
      created_at: e['created_at'],
    });
  });

  it('GET /exams pages newest first with {exams,total,limit,offset}; limit 1..100', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createExam(emu.info, pro, filesBody(`Página ${i}`))).id);
    const first = await call('GET', '/exams?limit=2');
    expect(first.status).toBe(200);
    expect(first.json['limit']).toBe(2);
    expect(first.json['offset']).toBe(0);
    const total = first.json['total'] as number;
    expect(total).toBeGreaterThanOrEqual(3);
    expect((first.json['exams'] as Json[]).map((e) => e['id'])).toEqual([ids[2], ids[1]]);
    const second = await call('GET', '/exams?limit=2&offset=2');
    expect((second.json['exams'] as Json[])[0]?.['id']).toBe(ids[0]);
    const all = await call('GET', '/exams?limit=100');
    expect((all.json['exams'] as Json[]).length).toBe(Math.min(100, total));
    expect((await call('GET', '/exams')).json['limit']).toBe(20);
    const beyond = await call('GET', `/exams?offset=${total}`);
    expect(beyond.json['exams']).toEqual([]);
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1']) {
      const r = await call('GET', `/exams?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.json.error?.code).toBe('validation_error');
    }
  });

  it('GET /exams/{id} returns the exam with share_url, viewer_url, share_password, public_page_pin; unknown → 404', async () => {
    const e = await createExam(emu.info, pro, filesBody('Detalle'));
    const r = await call('GET', `/exams/${e.id}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      id: e.id,
      share_url: e['share_url'],
      viewer_url: e['viewer_url'],
      share_password: e['share_password'],
      public_page_pin: e['public_page_pin'],
    });
    expect(r.json['upload_urls']).toBeUndefined();
    const missing = await call('GET', '/exams/exm_doesnotexist');
    expect(missing.status).toBe(404);
    expect(missing.json.error?.code).toBe('not_found');
  });

  it('an exam of another account is invisible (404) and its delete does nothing', async () => {
    const e = await createExam(emu.info, pro, filesBody('Ajeno'));
    expect((await call('GET', `/exams/${e.id}`, undefined, emu.info.keys.clinica)).status).toBe(404);
    const del = await call('DELETE', `/exams/${e.id}`, undefined, emu.info.keys.clinica);
    expect(del.json['already_deleted']).toBe(true);
    expect((await call('GET', `/exams/${e.id}`)).status).toBe(200);
  });

  it('PATCH changes only the included fields and emits exam.updated with {exam_id, fields, changes}', async () => {
    const e = await createExam(
      emu.info,
      pro,
      filesBody('Antes', undefined, { patient_name: 'Ana', reason: 'Control' }),
    );
    const r = await call('PATCH', `/exams/${e.id}`, { name: 'Después', reason: 'Control', birth_date: '1990-05-06' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ name: 'Después', reason: 'Control', birth_date: '1990-05-06', patient_name: 'Ana' });
    const events = await activityOf(emu.info, pro, 'exam.updated', e.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toEqual({
      exam_id: e.id,
      fields: ['name', 'birth_date'],
      changes: { name: { from: 'Antes', to: 'Después' }, birth_date: { from: null, to: '1990-05-06' } },
    });
    const same = await call('PATCH', `/exams/${e.id}`, { name: 'Después' });
    expect(same.status).toBe(200);
    expect(await activityOf(emu.info, pro, 'exam.updated', e.id)).toHaveLength(1);
    const cleared = await call('PATCH', `/exams/${e.id}`, { patient_name: null, expiration_days: 10 });
    expect(cleared.json).toMatchObject({ patient_name: null, expiration_days: 10 });
    expect(Date.parse(cleared.json['expires_at'] as string) - Date.parse(e['created_at'] as string)).toBe(
      10 * 86_400_000,
    );
  });

  it('PATCH refuses immutable, unknown and empty bodies with 400', async () => {
    const e = await createExam(emu.info, pro, filesBody('Inmutable'));
    for (const body of [
      { exam_type: 'mesh' },
      { share_token: 'x' },
      { storage: { bytes: 1 } },
      { counters: { views: 9 } },
      { name: 'ok', status: 'ready' },
    ]) {
      const r = await call('PATCH', `/exams/${e.id}`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error?.code).toBe('validation_error');
    }
    expect((await call('PATCH', `/exams/${e.id}`, { colour: 'red' })).status).toBe(400);
    expect((await call('PATCH', `/exams/${e.id}`, {})).status).toBe(400);
    expect((await call('PATCH', `/exams/${e.id}`, { name: 'x'.repeat(201) })).status).toBe(400);
    expect((await call('PATCH', `/exams/${e.id}`, { name: null })).status).toBe(400);
    expect((await call('GET', `/exams/${e.id}`)).json['name']).toBe('Inmutable');
    expect((await call('PATCH', '/exams/exm_nope', { name: 'x' })).status).toBe(404);
  });

  it('PATCH radiograph_subtype: allowed values on radiografia only', async () => {
    const rx = await createExam(emu.info, pro, filesBody('Panorámica', undefined, { exam_type: 'radiografia' }));
    const ok = await call('PATCH', `/exams/${rx.id}`, { radiograph_subtype: 'panoramica' });
    expect(ok.status).toBe(200);
    expect(ok.json['radiograph_subtype']).toBe('panoramica');
    expect((await call('PATCH', `/exams/${rx.id}`, { radiograph_subtype: 'tomografia' })).status).toBe(400);
    const cbct = await createExam(emu.info, pro, filesBody('CBCT'));
    const refused = await call('PATCH', `/exams/${cbct.id}`, { radiograph_subtype: 'panoramica' });
    expect(refused.status).toBe(400);
    expect((refused.json.error?.['details'] as { field: string }[])[0]?.field).toBe('radiograph_subtype');
  });

  it('DELETE answers {deleted, exam_id}, then already_deleted; reads give 404; objects are removed; exam.deleted emitted', async () => {
    const files = [{ name: 'x.dcm', size: 64 }];
    const e = await createExam(emu.info, pro, filesBody('Borrar', files));
    await uploadAll(e, files);
    const dir = join(emu.dataDir, 'objects', e.id);
    expect(existsSync(dir)).toBe(true);
    const first = await call('DELETE', `/exams/${e.id}`);
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ deleted: true, exam_id: e.id });
    const again = await call('DELETE', `/exams/${e.id}`);
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ deleted: true, exam_id: e.id, already_deleted: true });
    expect((await call('GET', `/exams/${e.id}`)).status).toBe(404);
    expect((await call('POST', `/exams/${e.id}/confirm`)).status).toBe(404);
    expect((await call('GET', '/exams?limit=100')).json['exams']).not.toContainEqual(
      expect.objectContaining({ id: e.id }),
    );
    for (let i = 0; i < 50 && existsSync(dir); i++) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(dir)).toBe(false);
    expect(await activityOf(emu.info, pro, 'exam.deleted', e.id)).toHaveLength(1);
    const unknown = await call('DELETE', '/exams/exm_neverexisted');
    expect(unknown.json).toEqual({ deleted: true, exam_id: 'exm_neverexisted', already_deleted: true });
  });

  it('confirm: upload_incomplete lists the missing names, then ready with exam.confirmed (§6.2 data) once; idempotent', async () => {
    const files = [
      { name: 'a.dcm', size: 100 },
      { name: 'b.dcm', size: 50 },
    ];
    const e = await createExam(
      emu.info,
      pro,
      filesBody('Confirmar', files, { patient_name: 'José Núñez', patient_id: '9.876.543-3' }),
    );
    const early = await call('POST', `/exams/${e.id}/confirm`);
    expect(early.status).toBe(409);
    expect(early.json.error?.code).toBe('upload_incomplete');
    expect(early.json.error?.['missing']).toEqual(['a.dcm', 'b.dcm']);
    await uploadAll({ ...e, upload_urls: e.upload_urls?.slice(0, 1) }, files);
    expect((await call('POST', `/exams/${e.id}/confirm`)).json.error?.['missing']).toEqual(['b.dcm']);
    await uploadAll(e, files);
    const ok = await call('POST', `/exams/${e.id}/confirm`);
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ status: 'ready', storage: { bytes: 150 } });
    expect(ok.json['confirmed_at']).not.toBeNull();
    const again = await call('POST', `/exams/${e.id}/confirm`);
    expect(again.status).toBe(200);
    expect(again.json['confirmed_at']).toBe(ok.json['confirmed_at']);
    const events = await activityOf(emu.info, pro, 'exam.confirmed', e.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toEqual({
      exam_id: e.id,
      exam_type: 'cbct',
      patient_name: 'José Núñez',
      patient_id: '9.876.543-3',
      status: 'ready',
      share_url: e['share_url'],
      viewer_url: e['viewer_url'],
    });
    const notes = await call('GET', '/notifications?limit=100');
    expect(
      (notes.json['notifications'] as Json[]).some((n) => n['exam_id'] === e.id && n['type'] === 'exam_ready'),
    ).toBe(true);
    const me = await call('GET', '/me');
    expect((me.json['storage'] as Json)['used_bytes']).toBeGreaterThanOrEqual(150);
  });

  it('confirm on a zip-mode exam → 409 conflict', async () => {
    const e = await createExam(emu.info, pro, { name: 'Z', upload_mode: 'zip', zip_size_bytes: 10 });
    const r = await call('POST', `/exams/${e.id}/confirm`);
    expect(r.status).toBe(409);
    expect(r.json.error?.code).toBe('conflict');
  });

  it('thumbnail: 404 thumbnail_not_ready until 30 s of service time after ready, then a real PNG', async () => {
    const e = await readyExam(emu.info, pro, filesBody('Miniatura', [{ name: 'm.dcm', size: 8 }]));
    const before = await call('GET', `/exams/${e.id}/thumbnail`);
    expect(before.status).toBe(404);
    expect(before.json.error?.code).toBe('thumbnail_not_ready');
    await emu.control('POST', '/clock', { advance_seconds: 25 });
    expect((await call('GET', `/exams/${e.id}/thumbnail`)).status).toBe(404);
    await emu.control('POST', '/clock', { advance_seconds: 6 });
    const res = await fetch(`${emu.info.base_url}/exams/${e.id}/thumbnail`, {
      headers: { Authorization: `Bearer ${pro}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = readPng(Buffer.from(await res.arrayBuffer()));
    expect(png).toEqual({ width: 160, height: 160, pixels: 161 * 160 });
    expect((await call('GET', `/exams/${e.id}`)).json['thumbnail_ready']).toBe(true);
  });

  it('thumbnail: the control endpoint generates it at once; not for an uploading exam', async () => {
    const e = await readyExam(emu.info, pro, filesBody('Miniatura ya', [{ name: 'm.dcm', size: 8 }]));
    expect((await call('GET', `/exams/${e.id}/thumbnail`)).status).toBe(404);
    expect(await emu.control('POST', `/exams/${e.id}/thumbnail`)).toEqual({ exam_id: e.id, thumbnail_ready: true });
    expect((await call('GET', `/exams/${e.id}/thumbnail`)).status).toBe(200);
    const up = await createExam(emu.info, pro, filesBody('Subiendo'));
    await expect(emu.control('POST', `/exams/${up.id}/thumbnail`)).rejects.toThrow(/409/);
    expect((await call('GET', `/exams/${up.id}/thumbnail`)).json.error?.code).toBe('thumbnail_not_ready');
  });

  it('patient-exams: by patient_id when set, else by name ignoring case, accents and spaces; excludes itself and deleted ones', async () => {
    const base = await createExam(emu.info, pro, filesBody('Base', undefined, { patient_name: 'María José  Muñoz' }));
    const same1 = await createExam(
      emu.info,
      pro,
      filesBody('Mismo 1', undefined, { patient_name: 'maria jose muñoz' }),
    );
    const same2 = await createExam(
      emu.info,
      pro,
      filesBody('Mismo 2', undefined, { patient_name: ' MARÍA   JOSÉ MUNOZ ', exam_type: 'atm' }),
    );
    const gone = await createExam(emu.info, pro, filesBody('Borrado', undefined, { patient_name: 'Maria Jose Munoz' }));
    await createExam(emu.info, pro, filesBody('Otra', undefined, { patient_name: 'María Josefa Muñoz' }));
    await call('DELETE', `/exams/${gone.id}`);
    const r = await call('GET', `/exams/${base.id}/patient-exams`);
    expect(r.status).toBe(200);
    expect(r.json['exams']).toEqual([
      { id: same2.id, name: 'Mismo 2', exam_type: 'atm', created_at: same2['created_at'] },
      { id: same1.id, name: 'Mismo 1', exam_type: 'cbct', created_at: same1['created_at'] },
    ]);

    const byId = await createExam(
      emu.info,
      pro,
      filesBody('Por RUT', undefined, { patient_name: 'Pedro Rojas', patient_id: '11.111.111-1' }),
    );
    const sameId = await createExam(
      emu.info,
      pro,
      filesBody('Otro nombre', undefined, { patient_name: 'P. Rojas', patient_id: '11.111.111-1' }),
    );
    await createExam(
      emu.info,
      pro,
      filesBody('Mismo nombre, otro id', undefined, { patient_name: 'Pedro Rojas', patient_id: '22.222.222-2' }),
    );
    const ids = ((await call('GET', `/exams/${byId.id}/patient-exams`)).json['exams'] as Json[]).map((x) => x['id']);
    expect(ids).toEqual([sameId.id]);

    const nobody = await createExam(emu.info, pro, filesBody('Sin paciente'));
    expect((await call('GET', `/exams/${nobody.id}/patient-exams`)).json).toEqual({ exams: [] });
    expect((await call('GET', '/exams/exm_nope/patient-exams')).status).toBe(404);
  });

  it('readonly key: 200 on reads, 403 insufficient_scope on every write', async () => {
    const ro = emu.info.keys.readonly;
    const e = await createExam(emu.info, pro, filesBody('Lectura'));
    expect((await call('GET', '/exams', undefined, ro)).status).toBe(200);
    expect((await call('GET', `/exams/${e.id}`, undefined, ro)).status).toBe(200);
    expect((await call('GET', `/exams/${e.id}/patient-exams`, undefined, ro)).status).toBe(200);
    expect((await call('GET', `/exams/${e.id}/thumbnail`, undefined, ro)).status).toBe(404);
    const writes: [string, string, unknown][] = [
      ['POST', '/exams', filesBody('No')],
      ['PATCH', `/exams/${e.id}`, { name: 'No' }],
      ['DELETE', `/exams/${e.id}`, undefined],
      ['POST', `/exams/${e.id}/confirm`, undefined],
      ['POST', `/exams/${e.id}/process-zip`, undefined],
    ];
    for (const [m, p, b] of writes) {
      const r = await call(m, p, b, ro);
      expect(r.status, `${m} ${p}`).toBe(403);
      expect(r.json.error?.code).toBe('insufficient_scope');
      expect(r.json.error?.['required_scope']).toBe('exams:write');
    }
    expect((await call('GET', `/exams/${e.id}`)).json['name']).toBe('Lectura');
  });

  it('sandbox exams are kept apart: test_mode, invisible to live keys, not counted, no activity or notifications', async () => {
    const sb = emu.info.keys.sandbox;
    const meBefore = await call('GET', '/me');
    const e = await readyExam(emu.info, sb, filesBody('Prueba', [{ name: 's.dcm', size: 5 }]));
    expect(e['test_mode']).toBe(true);
    expect(e['status']).toBe('ready');
    expect((await call('GET', `/exams/${e.id}`, undefined, sb)).status).toBe(200);
    expect((await call('GET', `/exams/${e.id}`)).status).toBe(404);
    expect((await call('GET', `/exams/${e.id}`, undefined, emu.info.keys.readonly)).status).toBe(404);
    const liveList = (await call('GET', '/exams?limit=100')).json;
    expect((liveList['exams'] as Json[]).some((x) => x['id'] === e.id)).toBe(false);
    const sbList = (await call('GET', '/exams', undefined, sb)).json;
    expect((sbList['exams'] as Json[]).map((x) => x['id'])).toContain(e.id);
    expect((sbList['exams'] as Json[]).every((x) => x['test_mode'] === true)).toBe(true);
    const meAfter = await call('GET', '/me');
    expect(meAfter.json['exams']).toEqual(meBefore.json['exams']);
    expect((meAfter.json['storage'] as Json)['used_bytes']).toBe((meBefore.json['storage'] as Json)['used_bytes']);
    await call('PATCH', `/exams/${e.id}`, { name: 'Prueba 2' }, sb);
    for (const action of ['exam.created', 'exam.confirmed', 'exam.updated'])
      expect(await activityOf(emu.info, pro, action, e.id)).toEqual([]);
    const notes = (await call('GET', '/notifications?limit=100')).json['notifications'] as Json[];
    expect(notes.some((n) => n['exam_id'] === e.id)).toBe(false);
    expect((await call('DELETE', `/exams/${e.id}`)).json['already_deleted']).toBe(true);
    expect((await call('DELETE', `/exams/${e.id}`, undefined, sb)).json).toEqual({ deleted: true, exam_id: e.id });
  });

  it('the control seed creates exams as POST /exams would: listed newest first, with activity, and refused like it', async () => {
    const before = (await call('GET', '/exams?limit=1')).json['total'] as number;
    const seeded = await emu.control<{ ids: string[] }>('POST', '/exams/seed', {
      key: pro,
      exams: [1, 2, 3].map((i) => ({
        name: `Sembrado ${i}`,
        patient_name: `P ${i}`,
        upload_mode: 'zip',
        zip_size_bytes: 10,
      })),
    });
    expect(seeded.ids).toHaveLength(3);
    const list = await call('GET', '/exams?limit=3');
    expect(list.json['total']).toBe(before + 3);
    const exams = list.json['exams'] as { id: string; name: string; status: string; upload_mode: string }[];
    expect(exams.map((e) => e.id)).toEqual([...seeded.ids].reverse());
    expect(exams.map((e) => [e.name, e.status, e.upload_mode])).toEqual([
      ['Sembrado 3', 'uploading', 'zip'],
      ['Sembrado 2', 'uploading', 'zip'],
      ['Sembrado 1', 'uploading', 'zip'],
    ]);
    const activity = await activityOf(emu.info, pro, 'exam.created');
    expect(activity.map((a) => a.data['exam_id'])).toEqual(expect.arrayContaining(seeded.ids));
    // The same checks as POST /exams: a body it would refuse is refused with its 400, and an unknown key is 401.
    await expect(
      emu.control('POST', '/exams/seed', { key: pro, exams: [{ name: 'sin tamaño', upload_mode: 'zip' }] }),
    ).rejects.toThrow(/→ 400/);
    await expect(
      emu.control('POST', '/exams/seed', {
        key: 'cbct_live_nope',
        exams: [{ name: 'x', upload_mode: 'zip', zip_size_bytes: 1 }],
      }),
    ).rejects.toThrow(/→ 401/);
  });

  it('a restart keeps exams, uploaded objects, presigned URLs and the pending thumbnail', async () => {
    const files = [
      { name: 'r1.dcm', size: 70 },
      { name: 'r2.dcm', size: 30 },
    ];
    const pending = await createExam(emu.info, pro, filesBody('Reinicio', files));
    await uploadAll({ ...pending, upload_urls: pending.upload_urls?.slice(0, 1) }, files);
    const ready = await readyExam(emu.info, pro, filesBody('Listo antes', [{ name: 'z.dcm', size: 9 }]));
    emu = await emu.restart();
    expect((await call('GET', `/exams/${pending.id}`)).json['status']).toBe('uploading');
    expect((await call('POST', `/exams/${pending.id}/confirm`)).json.error?.['missing']).toEqual(['r2.dcm']);
    await uploadAll({ ...pending, upload_urls: pending.upload_urls?.slice(1) }, files);
    const c = await call('POST', `/exams/${pending.id}/confirm`);
    expect(c.json).toMatchObject({ status: 'ready', storage: { bytes: 100 } });
    expect((await call('GET', `/exams/${ready.id}`)).json['status']).toBe('ready');
    expect((await call('GET', `/exams/${ready.id}/thumbnail`)).status).toBe(404);
    // The clock's control offset is not persisted, so step well past the 30 s again.
    await emu.control('POST', '/clock', { advance_seconds: 120 });
    expect((await call('GET', `/exams/${ready.id}/thumbnail`)).status).toBe(200);
  });
});
