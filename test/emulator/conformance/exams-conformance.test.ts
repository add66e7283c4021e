// Exams: creation rules, presigned uploads, confirm, list, read, update, delete, ZIP processing, extras,
// access PIN, embed, thumbnail and patient-exams (API-v1.md §2.2–2.5, §3.1, §3.3, §3.4, §4.2, §8;
// CONTRACTS.md §1 shapes and error codes).
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { api, EmulatorProcess, type EmulatorInfo } from '../../support/emulator/emulator';
import {
  CreatedZipExam,
  createExam,
  expectError,
  expectLimitRejected,
  expectOk,
  expectValidationError,
  files,
  getBytes,
  isoTimestamp,
  makeDicom,
  makeZip,
  put,
  readyExam,
  sleep,
} from '../../support/emulator/conformance-client';

const URL_TTL = 120;
let emu: EmulatorProcess;
let info: EmulatorInfo;
let pro: string;
let free: string;

beforeAll(async () => {
  emu = await EmulatorProcess.start({ urlTtl: URL_TTL });
  info = emu.info;
  pro = info.keys.pro;
  free = info.keys.free;
});
afterAll(async () => {
  await emu.dispose();
});

const Exam = z
  .object({
    id: z.string().min(1),
    name: z.string(),
    exam_type: z.string(),
    status: z.string(),
    created_at: isoTimestamp,
  })
  .loose();

const create = (key: string, body: Record<string, unknown>) =>
  api(info, key, 'POST', '/exams', { name: 'Exam', files: [{ name: 'a.dcm', size: 4 }], ...body });

describe('POST /exams (§2.2)', () => {
  it('creates a files-mode exam: 201, status uploading, cbct by default, one upload URL per file in request order', async () => {
    const specs = files(3, 'ct', 10);
    const { id, urls, json } = await createExam(info, pro, specs, { name: 'Default type' });
    const exam = Exam.parse(json);
    expect(exam.id).toBe(id);
    expect(exam.status).toBe('uploading');
    expect(exam.exam_type).toBe('cbct');
    expect(urls.map((u) => u.name)).toEqual(specs.map((s) => s.name));
    expect(new Set(urls.map((u) => u.url)).size).toBe(3);
    for (const u of urls) {
      const lifetime = (Date.parse(u.expires_at) - Date.parse(exam.created_at)) / 1000;
      expect(lifetime).toBeGreaterThan(URL_TTL - 10);
      expect(lifetime).toBeLessThanOrEqual(URL_TTL + 10);
    }
  });

  it('stores the optional fields given on creation', async () => {
    const body = {
      name: 'Con datos',
      patient_name: 'Juan Pérez',
      patient_id: '12.345.678-5',
      birth_date: '1980-01-31',
      reason: 'Evaluación de implante 3.6',
      expiration_days: 30,
    };
    const res = await create(pro, body);
    expectOk(res, 201);
    const got = await api(info, pro, 'GET', `/exams/${String(res.json.id)}`);
    expectOk(got, 200);
    expect(got.json).toMatchObject(body);
  });

  it('expiration_days null means never and is accepted', async () => {
    const res = await create(pro, { expiration_days: null });
    expectOk(res, 201);
    const got = await api(info, pro, 'GET', `/exams/${String(res.json.id)}`);
    expect(got.json.expiration_days).toBeNull();
  });

  it('name is required', async () => {
    expectValidationError(await api(info, pro, 'POST', '/exams', { files: [{ name: 'a.dcm', size: 1 }] }), 'name');
  });

  it('name of 200 characters is accepted, 201 is refused', async () => {
    expectOk(await create(pro, { name: 'n'.repeat(200) }), 201);
    expectLimitRejected(await create(pro, { name: 'n'.repeat(201) }));
  });

  it('the name limit counts characters, not bytes', async () => {
    const res = await create(pro, { name: 'ñ'.repeat(200) });
    expectOk(res, 201);
    expect(res.json.name).toBe('ñ'.repeat(200));
    expectLimitRejected(await create(pro, { name: 'ñ'.repeat(201) }));
  });

  it.each(['cbct', 'mesh', 'atm'])('exam_type %s is accepted on the Free plan', async (t) => {
    const res = await create(free, { exam_type: t });
    expectOk(res, 201);
    expect(res.json.exam_type).toBe(t);
  });

  it('radiografia on the Free plan → 403 plan_required; on Pro it is created', async () => {
    expectError(await create(free, { exam_type: 'radiografia' }), 403, 'plan_required');
    const res = await create(pro, { exam_type: 'radiografia' });
    expectOk(res, 201);
    expect(res.json.exam_type).toBe('radiografia');
  });

  it('an unknown exam_type is a validation error', async () => {
    expectValidationError(await create(pro, { exam_type: 'mri' }), 'exam_type');
  });

  it('birth_date must be YYYY-MM-DD', async () => {
    expectValidationError(await create(pro, { birth_date: '31/01/1980' }), 'birth_date');
    expectValidationError(await create(pro, { birth_date: '1980-1-31' }), 'birth_date');
  });

  it('expiration_days must be a number or null', async () => {
    expectValidationError(await create(pro, { expiration_days: 'thirty' }), 'expiration_days');
  });

  it('upload_mode must be files or zip', async () => {
    expectValidationError(await create(pro, { upload_mode: 'tar' }), 'upload_mode');
  });

  it('files is required in files mode, with at least one item', async () => {
    expectValidationError(await api(info, pro, 'POST', '/exams', { name: 'No files' }), 'files');
    expectValidationError(await api(info, pro, 'POST', '/exams', { name: 'No files', upload_mode: 'files' }), 'files');
    expectLimitRejected(await api(info, pro, 'POST', '/exams', { name: 'Empty', files: [] }));
  });

  it('each file needs a name and a size', async () => {
    expectValidationError(
      await api(info, pro, 'POST', '/exams', { name: 'Bad file', files: [{ name: 'a.dcm' }] }),
      'files',
    );
    expectValidationError(await api(info, pro, 'POST', '/exams', { name: 'Bad file', files: [{ size: 3 }] }), 'files');
  });

  it('5000 files are accepted (5000 URLs), 5001 are refused', async () => {
    const mk = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `f${i}.dcm`, size: 1 }));
    const ok = await api(info, pro, 'POST', '/exams', { name: 'Big', files: mk(5000) });
    expectOk(ok, 201);
    expect((ok.json.upload_urls as unknown[]).length).toBe(5000);
    expectLimitRejected(await api(info, pro, 'POST', '/exams', { name: 'Too big', files: mk(5001) }));
  });

  it('zip mode needs zip_size_bytes, accepts 1073741824 with a single upload_url, refuses 1073741825', async () => {
    expectValidationError(
      await api(info, pro, 'POST', '/exams', { name: 'Zip', upload_mode: 'zip' }),
      'zip_size_bytes',
    );
    const ok = await api(info, pro, 'POST', '/exams', { name: 'Zip', upload_mode: 'zip', zip_size_bytes: 1073741824 });
    expectOk(ok, 201);
    const exam = CreatedZipExam.parse(ok.json);
    expect(exam.status).toBe('uploading');
    expectLimitRejected(
      await api(info, pro, 'POST', '/exams', { name: 'Zip', upload_mode: 'zip', zip_size_bytes: 1073741825 }),
    );
  });
});

describe('account exam count limit (GET /me exams.limit)', () => {
  const Me = z.object({ exams: z.object({ count: z.number(), limit: z.number() }).loose() }).loose();

  it('the Free account cannot hold more exams than exams.limit', async () => {
    const me = Me.parse((await api(info, free, 'GET', '/me')).json);
    expect(me.exams.limit).toBeLessThan(60);
    for (let i = me.exams.count; i < me.exams.limit; i++) expectOk(await create(free, { name: `Fill ${i}` }), 201);
    expect(Me.parse((await api(info, free, 'GET', '/me')).json).exams.count).toBe(me.exams.limit);
    expectError(await create(free, { name: 'One too many' }), [400, 403, 409], ['limit_exceeded', 'plan_required']);
    expect(Me.parse((await api(info, free, 'GET', '/me')).json).exams.count).toBe(me.exams.limit);
  });
});

describe('presigned uploads and confirm', () => {
  it('a PUT without any Authorization header stores the file', async () => {
    const specs = files(1, 'noauth', 32);
    const { urls } = await createExam(info, pro, specs);
    const res = await put(urls[0]?.url ?? '', specs[0]?.bytes ?? new Uint8Array());
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
  });

  it('a PUT whose size differs from the declared size → 400 (shorter and longer)', async () => {
    const { id, urls } = await createExam(info, pro, files(2, 'size', 100));
    expect((await put(urls[0]?.url ?? '', Buffer.alloc(99))).status).toBe(400);
    expect((await put(urls[1]?.url ?? '', Buffer.alloc(101))).status).toBe(400);
    const confirm = await api(info, pro, 'POST', `/exams/${id}/confirm`);
    expectError(confirm, 409, 'upload_incomplete');
  });

  it('confirm with files missing → 409 upload_incomplete listing exactly the missing names; then ready; then idempotent', async () => {
    const specs = files(4, 'partial', 20);
    const { id, urls } = await createExam(info, pro, specs, { name: 'Partial' });
    for (const i of [0, 2])
      expect((await put(urls[i]?.url ?? '', specs[i]?.bytes ?? new Uint8Array())).status).toBeLessThan(300);
    const first = await api(info, pro, 'POST', `/exams/${id}/confirm`);
    expectError(first, 409, 'upload_incomplete');
    const missing = z.array(z.string()).parse(first.json.error?.['missing']);
    expect([...missing].sort()).toEqual([specs[1]?.name, specs[3]?.name].sort());
    expect((await api(info, pro, 'GET', `/exams/${id}`)).json.status).toBe('uploading');

    for (const i of [1, 3])
      expect((await put(urls[i]?.url ?? '', specs[i]?.bytes ?? new Uint8Array())).status).toBeLessThan(300);
    expectOk(await api(info, pro, 'POST', `/exams/${id}/confirm`), 200);
    expect((await api(info, pro, 'GET', `/exams/${id}`)).json.status).toBe('ready');
    expectOk(await api(info, pro, 'POST', `/exams/${id}/confirm`), 200);
    expect((await api(info, pro, 'GET', `/exams/${id}`)).json.status).toBe('ready');
  });
});

describe('GET /exams', () => {
  const created: string[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 23; i++) {
      const res = await create(info.keys.clinica, { name: `List ${i}` });
      expectOk(res, 201);
      created.push(String(res.json.id));
      await sleep(3);
    }
  });

  const Page = z.object({ exams: z.array(Exam), total: z.number(), limit: z.number(), offset: z.number() }).loose();

  it('answers {exams, total, limit, offset} with 20 by default, newest first', async () => {
    const res = await api(info, info.keys.clinica, 'GET', '/exams');
    expectOk(res, 200);
    const page = Page.parse(res.json);
    expect(page.total).toBe(23);
    expect(page.limit).toBe(20);
    expect(page.offset).toBe(0);
    expect(page.exams.map((e) => e.id)).toEqual([...created].reverse().slice(0, 20));
  });

  it('offset continues the same order', async () => {
    const page = Page.parse((await api(info, info.keys.clinica, 'GET', '/exams?offset=20')).json);
    expect(page.offset).toBe(20);
    expect(page.exams.map((e) => e.id)).toEqual([...created].reverse().slice(20));
    const mid = Page.parse((await api(info, info.keys.clinica, 'GET', '/exams?limit=5&offset=3')).json);
    expect(mid.limit).toBe(5);
    expect(mid.exams.map((e) => e.id)).toEqual([...created].reverse().slice(3, 8));
  });

  it('limit 100 is allowed; above 100 is never served as more than 100', async () => {
    const ok = Page.parse((await api(info, info.keys.clinica, 'GET', '/exams?limit=100')).json);
    expect(ok.limit).toBe(100);
    expect(ok.exams).toHaveLength(23);
    const over = await api(info, info.keys.clinica, 'GET', '/exams?limit=101');
    if (over.status >= 400) expectError(over, 400);
    else expect(Page.parse(over.json).limit).toBeLessThanOrEqual(100);
  });

  it("lists only the key's own account", async () => {
    const page = Page.parse((await api(info, info.keys.ultra, 'GET', '/exams?limit=100')).json);
    expect(page.exams.some((e) => created.includes(e.id))).toBe(false);
  });
});

describe('GET /exams/{id}', () => {
  it('returns the named fields including share_url, viewer_url, share_password and public_page_pin', async () => {
    const id = await readyExam(info, pro, {
      name: 'Detalle',
      patient_name: 'Rosa Díaz',
      patient_id: 'R-1',
      birth_date: '1975-05-05',
      reason: 'Control',
    });
    const res = await api(info, pro, 'GET', `/exams/${id}`);
    expectOk(res, 200);
    const exam = Exam.parse(res.json);
    expect(exam.id).toBe(id);
    expect(exam.status).toBe('ready');
    for (const f of [
      'patient_name',
      'patient_id',
      'birth_date',
      'reason',
      'expiration_days',
      'share_url',
      'viewer_url',
      'share_password',
      'public_page_pin',
      'share_token',
      'extra_series',
      'storage',
      'counters',
    ]) {
      expect(res.json, f).toHaveProperty(f);
    }
    for (const f of ['share_url', 'viewer_url']) expect(() => new URL(z.string().parse(res.json[f]))).not.toThrow();
    expect(z.string().parse(res.json.public_page_pin)).toMatch(/^\d+$/);
  });
});

describe('PATCH /exams/{id}', () => {
  const snapshot = (j: Record<string, unknown>) => ({
    name: j.name,
    patient_name: j.patient_name,
    patient_id: j.patient_id,
    birth_date: j.birth_date,
    reason: j.reason,
    expiration_days: j.expiration_days,
    exam_type: j.exam_type,
    share_token: j.share_token,
    share_url: j.share_url,
    viewer_url: j.viewer_url,
    status: j.status,
  });

  it('changes only the included fields', async () => {
    const id = await readyExam(info, pro, {
      name: 'Antes',
      patient_name: 'Luis Mora',
      patient_id: 'L-1',
      birth_date: '1990-10-10',
      reason: 'A',
      expiration_days: 10,
    });
    const before = snapshot((await api(info, pro, 'GET', `/exams/${id}`)).json);
    expectOk(await api(info, pro, 'PATCH', `/exams/${id}`, { reason: 'B' }), 200);
    const after = snapshot((await api(info, pro, 'GET', `/exams/${id}`)).json);
    expect(after).toEqual({ ...before, reason: 'B' });
    expectOk(
      await api(info, pro, 'PATCH', `/exams/${id}`, {
        name: 'Después',
        patient_name: 'Luis Mora Soto',
        expiration_days: null,
      }),
      200,
    );
    const third = snapshot((await api(info, pro, 'GET', `/exams/${id}`)).json);
    expect(third).toEqual({
      ...before,
      reason: 'B',
      name: 'Después',
      patient_name: 'Luis Mora Soto',
      expiration_days: null,
    });
  });

  it('every patchable field can be changed', async () => {
    const { id } = await createExam(info, pro, files(1), { name: 'P' });
    const body = {
      name: 'Q',
      patient_name: 'Ana',
      patient_id: 'A-9',
      birth_date: '2001-02-03',
      reason: 'R',
      expiration_days: 7,
    };
    expectOk(await api(info, pro, 'PATCH', `/exams/${id}`, body), 200);
    expect((await api(info, pro, 'GET', `/exams/${id}`)).json).toMatchObject(body);
  });

  it('exam_type and share_token are immutable', async () => {
    const id = await readyExam(info, pro, { name: 'Immutable' });
    const before = (await api(info, pro, 'GET', `/exams/${id}`)).json;
    for (const body of [
      { exam_type: 'mesh' },
      { share_token: 'forged-token' },
      { storage: { bytes: 1 } },
      { counters: { views: 999 } },
    ]) {
      const res = await api(info, pro, 'PATCH', `/exams/${id}`, body);
      if (res.status >= 300) expectError(res, [400, 409, 422]);
    }
    const after = (await api(info, pro, 'GET', `/exams/${id}`)).json;
    expect(after.exam_type).toBe(before.exam_type);
    expect(after.share_token).toBe(before.share_token);
    expect(after.storage).toEqual(before.storage);
    expect(after.counters).toEqual(before.counters);
  });

  it('radiograph_subtype is for radiografia only: it never lands on a CBCT exam', async () => {
    const id = await readyExam(info, pro, { name: 'No subtype' });
    const res = await api(info, pro, 'PATCH', `/exams/${id}`, { radiograph_subtype: 'panoramica' });
    if (res.status >= 300) expectError(res, [400, 409, 422]);
    expect((await api(info, pro, 'GET', `/exams/${id}`)).json.radiograph_subtype ?? null).toBeNull();
  });

  it('fields outside the patchable list (status, upload_mode) do not change', async () => {
    const { id } = await createExam(info, pro, files(1), { name: 'Still uploading' });
    const res = await api(info, pro, 'PATCH', `/exams/${id}`, { status: 'ready', upload_mode: 'zip' });
    if (res.status >= 300) expectError(res, [400, 409, 422]);
    const after = (await api(info, pro, 'GET', `/exams/${id}`)).json;
    expect(after.status).toBe('uploading');
    expectError(await api(info, pro, 'POST', `/exams/${id}/confirm`), 409, 'upload_incomplete');
  });

  it('validates patched values like creation does', async () => {
    const { id } = await createExam(info, pro, files(1), { name: 'Valid' });
    expectLimitRejected(await api(info, pro, 'PATCH', `/exams/${id}`, { name: 'x'.repeat(201) }));
    expectValidationError(await api(info, pro, 'PATCH', `/exams/${id}`, { birth_date: '03-02-2001' }), 'birth_date');
    expect((await api(info, pro, 'GET', `/exams/${id}`)).json.name).toBe('Valid');
  });

  it('an unknown exam → 404 not_found', async () => {
    expectError(await api(info, pro, 'PATCH', '/exams/exm_nope0000000000', { reason: 'x' }), 404, 'not_found');
  });
});

describe('DELETE /exams/{id}', () => {
  it('answers {deleted: true, exam_id}; a repeat answers 200 with already_deleted=true', async () => {
    const { id } = await createExam(info, pro, files(1), { name: 'To delete' });
    const first = await api(info, pro, 'DELETE', `/exams/${id}`);
    expectOk(first, 200);
    expect(first.json).toMatchObject({ deleted: true, exam_id: id });
    const again = await api(info, pro, 'DELETE', `/exams/${id}`);
    expectOk(again, 200);
    expect(again.json.already_deleted).toBe(true);
  });
});

describe('POST /exams/{id}/process-zip', () => {
  const escapeDir = mkdtempSync(join(tmpdir(), 'sb-conf-escape-'));
  afterAll(() => rmSync(escapeDir, { recursive: true, force: true }));

  async function zipExam(zip: Buffer): Promise<string> {
    const res = await api(info, pro, 'POST', '/exams', {
      name: 'Zip upload',
      upload_mode: 'zip',
      zip_size_bytes: zip.length,
      patient_name: 'Pedro Pérez',
    });
    expectOk(res, 201);
    const exam = CreatedZipExam.parse(res.json);
    const up = await put(exam.upload_url.url, zip);
    expect(up.status).toBeLessThan(300);
    return exam.id;
  }

  it('unpacks an uploaded ZIP of DICOM files: ready, and idempotent', async () => {
    const zip = await makeZip([
      { name: 'DICOM/IM0001.dcm', bytes: makeDicom('1.2.826.0.1.3680043.8.498.1') },
      { name: 'DICOM/IM0002.dcm', bytes: makeDicom('1.2.826.0.1.3680043.8.498.2') },
      { name: 'DICOM/IM0003.dcm', bytes: makeDicom('1.2.826.0.1.3680043.8.498.3') },
    ]);
    const id = await zipExam(zip);
    expect((await api(info, pro, 'GET', `/exams/${id}`)).json.status).toBe('uploading');
    expectOk(await api(info, pro, 'POST', `/exams/${id}/process-zip`), 200);
    expect((await api(info, pro, 'GET', `/exams/${id}`)).json.status).toBe('ready');
    expectOk(await api(info, pro, 'POST', `/exams/${id}/process-zip`), 200);
    expect((await api(info, pro, 'GET', `/exams/${id}`)).json.status).toBe('ready');
  });

  it('process-zip before the ZIP is uploaded is refused and the exam stays uploading', async () => {
    const res = await api(info, pro, 'POST', '/exams', {
      name: 'Zip not uploaded',
      upload_mode: 'zip',
      zip_size_bytes: 1000,
    });
    expectOk(res, 201);
    const id = String(res.json.id);
    expectError(await api(info, pro, 'POST', `/exams/${id}/process-zip`), [400, 409]);
    expect((await api(info, pro, 'GET', `/exams/${id}`)).json.status).toBe('uploading');
  });

  it('a ZIP with more than 5000 files is refused (§8.2)', async () => {
    const dicom = makeDicom('1.2.826.0.1.3680043.8.498.99');
    const zip = await makeZip(
      Array.from({ length: 5001 }, (_, i) => ({ name: `IM${String(i).padStart(5, '0')}.dcm`, bytes: dicom })),
    );
    const id = await zipExam(zip);
    expectLimitRejected(await api(info, pro, 'POST', `/exams/${id}/process-zip`));
    expect((await api(info, pro, 'GET', `/exams/${id}`)).json.status).toBe('uploading');
  });

  it('the ZIP upload must match zip_size_bytes exactly', async () => {
    const zip = await makeZip([{ name: 'a.dcm', bytes: makeDicom('1.2.3.4') }]);
    const res = await api(info, pro, 'POST', '/exams', {
      name: 'Zip size',
      upload_mode: 'zip',
      zip_size_bytes: zip.length + 1,
    });
    expectOk(res, 201);
    expect((await put(CreatedZipExam.parse(res.json).upload_url.url, zip)).status).toBe(400);
  });

  it('entries with ../ never write outside the service storage', async () => {
    const tag = `sbconf-${process.pid}-${Date.now()}`;
    const deep = `${'../'.repeat(24)}${escapeDir.replace(/^\//, '')}/${tag}-abs.dcm`;
    const entries = [
      { name: 'ok/IM0001.dcm', bytes: makeDicom('1.2.826.0.1.3680043.8.498.10') },
      { name: deep, bytes: makeDicom('1.2.826.0.1.3680043.8.498.11') },
    ];
    for (let d = 1; d <= 8; d++)
      entries.push({
        name: `${'../'.repeat(d)}${tag}-d${d}.dcm`,
        bytes: makeDicom(`1.2.826.0.1.3680043.8.498.${20 + d}`),
      });
    const zip = await makeZip(entries);
    expect(zip.includes(Buffer.from(deep))).toBe(true);
    const id = await zipExam(zip);
    const res = await api(info, pro, 'POST', `/exams/${id}/process-zip`);
    if (res.status >= 300) expectError(res, [400, 409, 422]);
    expect(readdirSync(escapeDir).filter((f) => f.startsWith(tag))).toEqual([]);
    for (let dir = dirname(emu.dataDir); ; dir = dirname(dir)) {
      expect(
        readdirSync(dir).filter((f) => f.startsWith(tag)),
        dir,
      ).toEqual([]);
      if (dir === dirname(dir)) break;
    }
    expect(existsSync(join(escapeDir, `${tag}-abs.dcm`))).toBe(false);
    expectOk(await api(info, pro, 'GET', '/me'), 200);
  });
});

describe('extras (§2.3)', () => {
  const Extra = z
    .object({ index: z.number(), upload_urls: z.array(z.unknown()).min(1), confirm_url: z.string().min(1) })
    .loose();
  const urlOf = (u: unknown): string =>
    typeof u === 'string' ? u : z.object({ url: z.string() }).loose().parse(u).url;

  it('index 1 then 2; confirm checks storage, updates extra_series and storage, is idempotent; a third is refused', async () => {
    const id = await readyExam(info, pro, { name: 'Con tomas', exam_type: 'cbct' });
    const before = (await api(info, pro, 'GET', `/exams/${id}`)).json;

    const one = await api(info, pro, 'POST', `/exams/${id}/extras`, {
      label: 'Toma 2',
      files: [
        { name: 'x1.dcm', size: 10 },
        { name: 'x2.dcm', size: 20 },
      ],
    });
    expectOk(one);
    const e1 = Extra.parse(one.json);
    expect(e1.index).toBe(1);
    expect(e1.upload_urls).toHaveLength(2);

    const early = await api(info, pro, 'POST', `/exams/${id}/extras/1/confirm`);
    expectError(early, 409, 'upload_incomplete');
    expect([...z.array(z.string()).parse(early.json.error?.['missing'])].sort()).toEqual(['x1.dcm', 'x2.dcm']);

    expect((await put(urlOf(e1.upload_urls[0]), Buffer.alloc(10, 1))).status).toBeLessThan(300);
    expect((await put(urlOf(e1.upload_urls[1]), Buffer.alloc(20, 2))).status).toBeLessThan(300);
    expectOk(await api(info, pro, 'POST', `/exams/${id}/extras/1/confirm`), 200);
    const after = (await api(info, pro, 'GET', `/exams/${id}`)).json;
    expect(after.extra_series).not.toEqual(before.extra_series);
    expect(after.storage).not.toEqual(before.storage);
    expectOk(await api(info, pro, 'POST', `/exams/${id}/extras/1/confirm`), 200);
    const again = (await api(info, pro, 'GET', `/exams/${id}`)).json;
    expect(again.extra_series).toEqual(after.extra_series);
    expect(again.storage).toEqual(after.storage);

    const two = await api(info, pro, 'POST', `/exams/${id}/extras`, {
      label: 'Toma 3',
      files: [{ name: 'y1.dcm', size: 5 }],
    });
    expectOk(two);
    const e2 = Extra.parse(two.json);
    expect(e2.index).toBe(2);
    expect((await put(urlOf(e2.upload_urls[0]), Buffer.alloc(5, 3))).status).toBeLessThan(300);
    // confirm_url names the confirm endpoint of this extra: absolute, or a path under the API.
    const target = /^https?:/.test(e2.confirm_url)
      ? e2.confirm_url
      : e2.confirm_url.startsWith('/api/')
        ? `${new URL(info.base_url).origin}${e2.confirm_url}`
        : `${info.base_url}${e2.confirm_url}`;
    expect(target.endsWith(`/exams/${id}/extras/2/confirm`)).toBe(true);
    const viaUrl = await fetch(target, {
      method: 'POST',
      headers: { Authorization: `Bearer ${pro}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ label: 'Toma 3 (final)' }),
    });
    expect(viaUrl.status).toBe(200);
    await viaUrl.arrayBuffer();

    expectLimitRejected(
      await api(info, pro, 'POST', `/exams/${id}/extras`, { label: 'Toma 4', files: [{ name: 'z.dcm', size: 1 }] }),
    );
  });

  it('confirming an extra that does not exist → 404 not_found', async () => {
    const id = await readyExam(info, pro, { name: 'Sin tomas' });
    expectError(await api(info, pro, 'POST', `/exams/${id}/extras/1/confirm`), 404, 'not_found');
  });

  it('extras work on atm exams', async () => {
    const id = await readyExam(info, pro, { name: 'ATM', exam_type: 'atm' });
    const res = await api(info, pro, 'POST', `/exams/${id}/extras`, {
      label: 'Boca abierta',
      files: [{ name: 'o.dcm', size: 3 }],
    });
    expectOk(res);
    expect(Extra.parse(res.json).index).toBe(1);
  });

  it('extras are refused for radiografia exams', async () => {
    const id = await readyExam(info, pro, { name: 'Rx', exam_type: 'radiografia' });
    const res = await api(info, pro, 'POST', `/exams/${id}/extras`, {
      label: 'x',
      files: [{ name: 'r.dcm', size: 3 }],
    });
    expectError(res, [400, 409, 422]);
  });
});

describe('access PIN (§2.4, §3.4)', () => {
  it('GET gives {pin, clinic_slug, public_url}; POST rotates to a new PIN that replaces the old one everywhere', async () => {
    const id = await readyExam(info, pro, { name: 'PIN' });
    const first = await api(info, pro, 'GET', `/exams/${id}/access-pin`);
    expectOk(first, 200);
    const pin1 = z
      .object({ pin: z.string().regex(/^\d+$/), clinic_slug: z.string().min(1), public_url: z.string().url() })
      .loose()
      .parse(first.json);
    expect((await api(info, pro, 'GET', `/exams/${id}`)).json.public_page_pin).toBe(pin1.pin);

    const rot = await api(info, pro, 'POST', `/exams/${id}/access-pin`);
    expectOk(rot);
    const rotated = z
      .object({ pin: z.string().regex(/^\d+$/), rotated_at: z.string() })
      .loose()
      .parse(rot.json);
    expect(Number.isNaN(Date.parse(rotated.rotated_at))).toBe(false);
    expect(rotated.pin).not.toBe(pin1.pin);
    expect((await api(info, pro, 'GET', `/exams/${id}/access-pin`)).json.pin).toBe(rotated.pin);
    expect((await api(info, pro, 'GET', `/exams/${id}`)).json.public_page_pin).toBe(rotated.pin);
  });
});

describe('embed (§2.5, §3.3)', () => {
  const Enabled = z.object({ embed_url: z.string().url(), iframe_snippet: z.string().min(1) }).loose();
  const State = z
    .object({
      enabled: z.boolean(),
      token: z.string().nullable(),
      snippet: z.string().nullable(),
      view_count: z.number(),
    })
    .loose();

  it('enable → URL works; revoke → URL stops working; enable again → a fresh token', async () => {
    const id = await readyExam(info, pro, { name: 'Embed' });
    const initial = await api(info, pro, 'GET', `/exams/${id}/embed`);
    expectOk(initial, 200);
    expect(State.parse(initial.json).enabled).toBe(false);

    const on = await api(info, pro, 'POST', `/exams/${id}/embed`, {
      title: 'Tomografía',
      show_year: true,
      show_study_type: false,
    });
    expectOk(on);
    const e1 = Enabled.parse(on.json);
    const s1 = State.parse((await api(info, pro, 'GET', `/exams/${id}/embed`)).json);
    expect(s1.enabled).toBe(true);
    expect(s1.token).toBeTruthy();
    expect((await getBytes(e1.embed_url)).status).toBe(200);

    expectOk(await api(info, pro, 'DELETE', `/exams/${id}/embed`));
    const s2 = State.parse((await api(info, pro, 'GET', `/exams/${id}/embed`)).json);
    expect(s2.token ?? null).toBeNull();
    expect(s2.enabled).toBe(false);
    expect((await getBytes(e1.embed_url)).status).toBeGreaterThanOrEqual(400);

    const again = await api(info, pro, 'POST', `/exams/${id}/embed`);
    expectOk(again);
    const e3 = Enabled.parse(again.json);
    const s3 = State.parse((await api(info, pro, 'GET', `/exams/${id}/embed`)).json);
    expect(s3.enabled).toBe(true);
    expect(s3.token).toBeTruthy();
    expect(s3.token).not.toBe(s1.token);
    expect(e3.embed_url).not.toBe(e1.embed_url);
    expect((await getBytes(e3.embed_url)).status).toBe(200);
    expect((await getBytes(e1.embed_url)).status).toBeGreaterThanOrEqual(400);
  });
});

describe('thumbnail', () => {
  it('404 thumbnail_not_ready before generation, then a JPEG or PNG image', async () => {
    const id = await readyExam(info, pro, { name: 'Thumb' });
    expectError(await api(info, pro, 'GET', `/exams/${id}/thumbnail`), 404, 'thumbnail_not_ready');
    await emu.control('POST', `/exams/${id}/thumbnail`);
    const img = await getBytes(`${info.base_url}/exams/${id}/thumbnail`, pro);
    expect(img.status).toBe(200);
    const isPng = img.bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const isJpeg = img.bytes[0] === 0xff && img.bytes[1] === 0xd8;
    expect(isPng || isJpeg).toBe(true);
    expect(img.type.split(';')[0]).toBe(isPng ? 'image/png' : 'image/jpeg');
  });
});

describe('GET /exams/{id}/patient-exams', () => {
  const key = () => info.keys.ultra;
  const Result = z
    .object({
      exams: z.array(
        z.object({ id: z.string(), name: z.string(), exam_type: z.string(), created_at: z.string() }).loose(),
      ),
    })
    .loose();
  const related = async (id: string) => {
    const res = await api(info, key(), 'GET', `/exams/${id}/patient-exams`);
    expectOk(res, 200);
    return Result.parse(res.json).exams.map((e) => e.id);
  };
  const mk = async (body: Record<string, unknown>) =>
    (await createExam(info, key(), files(1), { name: 'Paciente', ...body })).id;

  it('matches other exams by patient_id, not itself, not other patients', async () => {
    const a = await mk({ patient_id: 'P-100', patient_name: 'Juan Pérez' });
    const b = await mk({ patient_id: 'P-100', patient_name: 'J. Perez', exam_type: 'atm' });
    const d = await mk({ patient_id: 'P-300', patient_name: 'Otra Persona' });
    const list = await related(a);
    expect(list).toContain(b);
    expect(list).not.toContain(a);
    expect(list).not.toContain(d);
    const res = Result.parse((await api(info, key(), 'GET', `/exams/${a}/patient-exams`)).json);
    expect(res.exams.find((e) => e.id === b)).toMatchObject({ id: b, name: 'Paciente', exam_type: 'atm' });
  });

  describe('falls back to the normalized patient name when there is no patient_id', () => {
    let base: string;
    let other: string;
    beforeAll(async () => {
      base = await mk({ patient_name: 'María José Núñez' });
      other = await mk({ patient_name: 'María José Muñoz' });
    });
    it('ignores letter case', async () => {
      const x = await mk({ patient_name: 'MARÍA JOSÉ NÚÑEZ' });
      expect(await related(base)).toContain(x);
    });
    it('ignores accents', async () => {
      const x = await mk({ patient_name: 'Maria Jose Nunez' });
      expect(await related(base)).toContain(x);
    });
    it('ignores extra and surrounding spaces', async () => {
      const x = await mk({ patient_name: '  María   José Núñez ' });
      expect(await related(base)).toContain(x);
    });
    it('does not match a different name', async () => {
      const list = await related(base);
      expect(list).not.toContain(other);
      expect(list).not.toContain(base);
    });
  });
});

describe('service clock effects', () => {
  it('the thumbnail is generated on its own once its delay has passed on the service clock', async () => {
    const id = await readyExam(info, pro, { name: 'Auto thumb' });
    expectError(await api(info, pro, 'GET', `/exams/${id}/thumbnail`), 404, 'thumbnail_not_ready');
    await emu.control('POST', '/clock', { advance_seconds: 24 * 3600 });
    const img = await getBytes(`${info.base_url}/exams/${id}/thumbnail`, pro);
    expect(img.status).toBe(200);
  });
});

describe('presigned URL expiry (--url-ttl, control clock)', () => {
  it('a URL used after its lifetime → 403; a URL made after the clock moved still works', async () => {
    const specs = files(2, 'late', 8);
    const { urls } = await createExam(info, pro, specs, { name: 'Late upload' });
    expect((await put(urls[0]?.url ?? '', specs[0]?.bytes ?? new Uint8Array())).status).toBeLessThan(300);
    await emu.control('POST', '/clock', { advance_seconds: URL_TTL + 5 });
    expect((await put(urls[1]?.url ?? '', specs[1]?.bytes ?? new Uint8Array())).status).toBe(403);
    const fresh = await createExam(info, pro, files(1, 'fresh', 8), { name: 'Fresh upload' });
    expect((await put(fresh.urls[0]?.url ?? '', Buffer.alloc(8, 0))).status).toBeLessThan(300);
  });
});
