import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';
import {
  bytesFor,
  createExam,
  filesBody,
  getPage,
  put,
  readyExam,
  uploadAll,
  type Json,
  type UploadUrl,
} from '../../support/emulator/emulator-exams';
import { readSpec, specEndpoints } from '../../support/spec-tables';
import { WebhookReceiver } from '../../support/network/webhooks-receiver';

type Route = { method: string; path: string; scope: string | null };
type Fault = { target: string; mode: string; count: number; match?: string };
type Mail = {
  id: string;
  account_id: string;
  kind: string;
  to: string[];
  cc: string[];
  subject: string;
  body: string;
  attachments: unknown[];
  exam_id: string | null;
  created_at: string;
};
type Clock = { now: string; time_scale: number };

const GIB = 1024 ** 3;

/**
 * Rows of API-v1.md that the area suites left without a test (see SPEC-COVERAGE.md), and the control
 * API additions of the README. One emulator at --time-scale 0.5, so the clock checks also hold for a
 * scaled service.
 */
describe('emulator: spec rows and control additions not covered by the area suites', () => {
  let emu: EmulatorProcess;
  let rx: WebhookReceiver;
  let scratch: string;
  beforeAll(async () => {
    [emu, rx] = await Promise.all([
      EmulatorProcess.start({ insecureWebhooks: true, timeScale: 0.5 }),
      WebhookReceiver.start(),
    ]);
    scratch = mkdtempSync(join(tmpdir(), 'sb-gaps-'));
  });
  afterAll(async () => {
    await Promise.all([emu.dispose(), rx.close()]);
    rmSync(scratch, { recursive: true, force: true });
  });

  const call = (method: string, path: string, body?: unknown, key = emu.info.keys.pro) =>
    api(emu.info, key, method, path, body);
  const me = async (key: string): Promise<Json> => {
    const r = await call('GET', '/me', undefined, key);
    expect(r.status).toBe(200);
    return r.json;
  };

  it('GET /me names the account (user_id, email), the plan limits, and follows a confirmed upload in used_bytes, used_percent and exams.count', async () => {
    const limits = {
      free: [2 * GIB, 25],
      pro: [200 * GIB, 2000],
      clinica: [1024 * GIB, 10000],
      ultra: [5 * 1024 * GIB, 100000],
    } as const;
    const seen = new Set<string>();
    for (const plan of ['free', 'pro', 'clinica', 'ultra'] as const) {
      const m = await me(emu.info.keys[plan]);
      expect(m['user_id']).toMatch(/^usr_[a-z0-9]+$/);
      expect(m['email']).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
      seen.add(`${String(m['user_id'])} ${String(m['email'])}`);
      expect((m['storage'] as Json)['limit_bytes']).toBe(limits[plan][0]);
      expect((m['exams'] as Json)['limit']).toBe(limits[plan][1]);
    }
    expect(seen.size).toBe(4);
    const pro = await me(emu.info.keys.pro);
    for (const key of [emu.info.keys.readonly, emu.info.keys.sandbox]) {
      const other = await me(key);
      expect([other['user_id'], other['email'], other['plan']]).toEqual([pro['user_id'], pro['email'], 'pro']);
    }

    const free = emu.info.keys.free;
    const before = await me(free);
    const files = [{ name: 'serie/1.dcm', size: 1024 * 1024 }];
    await readyExam(emu.info, free, filesBody('Cuenta', files));
    const after = await me(free);
    const storage = after['storage'] as Record<string, number>;
    expect(storage['used_bytes']).toBe(
      ((before['storage'] as Record<string, number>)['used_bytes'] ?? 0) + 1024 * 1024,
    );
    expect(storage['used_percent']).toBe(Math.round(((storage['used_bytes'] ?? 0) / (2 * GIB)) * 10000) / 100);
    expect(storage['used_percent']).toBeGreaterThan(0);
    expect((after['exams'] as Json)['count']).toBe(((before['exams'] as Json)['count'] as number) + 1);
  });

  it('keys have the README format, and only an Authorization: Bearer <key> header authenticates', async () => {
    const { sandbox, ...live } = emu.info.keys;
    for (const k of Object.values(live)) expect(k).toMatch(/^cbct_live_[0-9a-f]{32}$/);
    expect(sandbox).toMatch(/^cbct_test_[0-9a-f]{32}$/);
    expect(new Set(Object.values(emu.info.keys)).size).toBe(6);

    const key = emu.info.keys.pro;
    const status = async (headers: Record<string, string>, query = ''): Promise<number> =>
      (await fetch(`${emu.info.base_url}/me${query}`, { headers })).status;
    expect(await status({ Authorization: `Bearer ${key}` })).toBe(200);
    expect(await status({ Authorization: `bearer ${key}` })).toBe(200);
    expect(await status({ Authorization: key })).toBe(401);
    expect(await status({ Authorization: `Basic ${key}` })).toBe(401);
    expect(await status({ 'X-API-Key': key })).toBe(401);
    expect(await status({}, `?api_key=${key}`)).toBe(401);
  });

  it('each key carries its bucket: Free 100, Pro 1000, Clinica 5000, Ultra 10000 and sandbox 1000 requests per hour, none above 10000', async () => {
    const expected = { free: 100, pro: 1000, clinica: 5000, ultra: 10000, sandbox: 1000, readonly: 1000 } as const;
    for (const [name, limit] of Object.entries(expected)) {
      const r = await call('GET', '/me', undefined, emu.info.keys[name as keyof typeof expected]);
      expect(Number(r.headers.get('X-RateLimit-Limit')), name).toBe(limit);
      expect((r.json['rate_limit'] as Json)['limit'], name).toBe(limit);
      const remaining = Number(r.headers.get('X-RateLimit-Remaining'));
      expect(remaining).toBeLessThan(limit);
      expect(remaining).toBeGreaterThan(limit - 20);
      // CONTRACTS.md §1 starts no Enterprise account: no key is limited beyond Ultra's 10000.
      expect(limit).toBeLessThanOrEqual(10000);
    }
  });

  it('serves every §4 endpoint with the scope API-v1.md states, or the README scope where it is not stated, and no other API route', async () => {
    const readme: Record<string, string | null> = {
      'GET /me': null,
      'POST /exams/{id}/embed': 'exams:write',
      'GET /exams/{id}/report': 'exams:read',
      'POST /exams/{id}/report': 'exams:write',
      'DELETE /exams/{id}/report': 'exams:write',
      'POST /exams/{id}/report/sign': 'exams:write',
      'POST /webhooks': 'webhooks:write',
      'GET /webhooks': 'webhooks:write',
      'GET /webhooks/{id}': 'webhooks:write',
      'PATCH /webhooks/{id}': 'webhooks:write',
      'DELETE /webhooks/{id}': 'webhooks:write',
      'POST /webhooks/{id}/test': 'webhooks:write',
      'GET /webhooks/{id}/deliveries': 'webhooks:write',
    };
    const expected = new Map<string, string | null>();
    for (const e of specEndpoints(readSpec())) {
      const name = `${e.method} ${e.path}`;
      const stated = /^([a-z]+:(?:read|write))(?:\s*\(implied\))?$/.exec(e.scope)?.[1];
      expect(
        stated !== undefined || name in readme,
        `${name}: scope "${e.scope}" is neither stated nor decided in the README`,
      ).toBe(true);
      expected.set(name, stated ?? readme[name] ?? null);
    }
    // §4.8 states the catalog's scope in prose: "GET /implants (scope exams:read)".
    expected.set('GET /implants', 'exams:read');

    const { api: routes } = await emu.control<{ api: Route[] }>('GET', '/routes');
    const served = new Map(routes.map((r) => [`${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`, r.scope]));
    expect([...served.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [name, scope] of expected) expect(served.get(name), name).toBe(scope);
  });

  it('delivers exam.created, exam.updated, exam.shared, exam.extra_added and exam.deleted with their documented data', async () => {
    const path = '/exam-events';
    const events = ['exam.created', 'exam.updated', 'exam.shared', 'exam.extra_added', 'exam.deleted'];
    const sub = await call('POST', '/webhooks', { url: rx.url(path), events });
    expect(sub.status).toBe(201);
    rx.setSecret(path, sub.json['secret'] as string);

    const files = [{ name: 'a.dcm', size: 10 }];
    const e = await createExam(
      emu.info,
      emu.info.keys.pro,
      filesBody('Eventos', files, { patient_name: 'Rosa Díaz', patient_id: 'P-9' }),
    );
    await uploadAll(e, files);
    expect((await call('POST', `/exams/${e.id}/confirm`)).status).toBe(200);
    expect((await call('PATCH', `/exams/${e.id}`, { name: 'Eventos 2' })).status).toBe(200);
    const share = await call('POST', `/exams/${e.id}/share`, { to: 'eventos@example.cl' });
    expect(share.status).toBe(200);
    const extra = await call('POST', `/exams/${e.id}/extras`, { label: 'Toma 2', files: [{ name: 'x.dcm', size: 7 }] });
    expect(extra.status).toBe(201);
    expect((await put((extra.json['upload_urls'] as UploadUrl[])[0]?.url ?? '', bytesFor('x.dcm', 7))).status).toBe(
      200,
    );
    expect((await call('POST', `/exams/${e.id}/extras/1/confirm`)).status).toBe(200);
    expect((await call('DELETE', `/exams/${e.id}`)).status).toBe(200);

    const got = await rx.waitFor(path, 5);
    expect(got.map((g) => g.body.type).sort()).toEqual([...events].sort());
    for (const g of got) {
      expect(g.answered, g.body.type).toBe(204);
      expect(g.headers['x-service-event']).toBe(g.body.type);
    }
    const data = (type: string): Json | undefined => got.find((g) => g.body.type === type)?.body.data;
    expect(data('exam.created')).toEqual({
      exam_id: e.id,
      name: 'Eventos',
      exam_type: 'cbct',
      status: 'uploading',
      patient_name: 'Rosa Díaz',
      patient_id: 'P-9',
      created_at: e['created_at'],
    });
    expect(data('exam.updated')).toEqual({
      exam_id: e.id,
      fields: ['name'],
      changes: { name: { from: 'Eventos', to: 'Eventos 2' } },
    });
    expect(data('exam.shared')).toEqual({
      exam_id: e.id,
      to: ['eventos@example.cl'],
      cc: [],
      email_id: share.json['email_id'],
    });
    expect(data('exam.extra_added')).toEqual({
      exam_id: e.id,
      index: 1,
      label: 'Toma 2',
      file_count: 1,
      storage_bytes: 7,
    });
    expect(data('exam.deleted')).toMatchObject({ exam_id: e.id, exam_type: 'cbct' });
    expect(Number.isNaN(Date.parse(String(data('exam.deleted')?.['deleted_at'])))).toBe(false);
    expect((await call('DELETE', `/webhooks/${sub.json['id'] as string}`)).status).toBe(200);
  });

  it('a delivery succeeds on any 2xx answer; a 3xx is a failure (redirects are not followed)', async () => {
    const path = '/status-codes';
    const sub = await call('POST', '/webhooks', { url: rx.url(path), events: ['exam.created'] });
    rx.setSecret(path, sub.json['secret'] as string);
    const ping = async (status: number): Promise<Json> => {
      rx.setStatus(path, status);
      const r = await call('POST', `/webhooks/${sub.json['id'] as string}/test`);
      expect(r.status).toBe(200);
      return r.json;
    };
    for (const ok of [200, 202, 299]) expect((await ping(ok))['delivered'], String(ok)).toBe(true);
    const redirect = await ping(302);
    expect(redirect['delivered']).toBe(false);
    expect(redirect['delivery']).toMatchObject({ status: 'failed', response_status: 302, error: 'HTTP 302' });
    expect(rx.on(path)).toHaveLength(4);
    // Later exams of this file must not feed a failing subscription.
    expect((await call('DELETE', `/webhooks/${sub.json['id'] as string}`)).status).toBe(200);
  });

  it('viewing an exam through its viewer, share-link or embed page creates no notification', async () => {
    const e = await readyExam(emu.info, emu.info.keys.pro, filesBody('Vistas', [{ name: 'v.dcm', size: 3 }]));
    const embed = await call('POST', `/exams/${e.id}/embed`);
    const list = async (): Promise<{ ids: string[]; unread: number }> => {
      const r = await call('GET', '/notifications?limit=100');
      return {
        ids: (r.json['notifications'] as Json[]).map((n) => n['id'] as string),
        unread: r.json['unread_count'] as number,
      };
    };
    const before = await list();
    for (const url of [e['viewer_url'], e['share_url'], embed.json['embed_url']] as string[])
      expect((await getPage(url)).status).toBe(200);
    expect((await call('GET', `/exams/${e.id}`)).json['counters']).toMatchObject({ views: 3 });
    expect(await list()).toEqual(before);
  });

  it('a ZIP entry declared above 1.6 TB → 400 limit_exceeded before anything is inflated', async () => {
    const path = join(scratch, 'huge-entry.zip');
    const zip = new ZipFile();
    zip.addBuffer(Buffer.alloc(4096), 'CT/0001.dcm', { compress: true, forceZip64Format: true });
    zip.end();
    await pipeline(zip.outputStream as unknown as Readable, createWriteStream(path));
    // A hostile central directory: the ZIP64 "original size" of the entry claims 1.7 TB.
    const buf = readFileSync(path);
    let patched = 0;
    for (let h = 0; h + 46 <= buf.length; h++) {
      if (buf.readUInt32LE(h) !== 0x02014b50) continue;
      let x = h + 46 + buf.readUInt16LE(h + 28);
      const end = x + buf.readUInt16LE(h + 30);
      for (; x + 4 <= end; x += 4 + buf.readUInt16LE(x + 2)) {
        if (buf.readUInt16LE(x) === 0x0001) {
          buf.writeBigUInt64LE(1_700_000_000_000n, x + 4);
          patched++;
        }
      }
    }
    expect(patched).toBe(1);
    const size = buf.length;
    const e = await createExam(emu.info, emu.info.keys.pro, {
      name: 'ZIP hostil',
      upload_mode: 'zip',
      zip_size_bytes: size,
    });
    const upload = await fetch(e.upload_url?.url ?? '', { method: 'PUT', body: new Uint8Array(buf) });
    expect(upload.status).toBe(200);
    const r = await call('POST', `/exams/${e.id}/process-zip`);
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'limit_exceeded', limit_bytes: 1.6e12 });
    expect((await call('GET', `/exams/${e.id}`)).json).toMatchObject({ status: 'uploading', file_count: 0 });
    // The same archive with its true size is accepted.
    const honest = join(scratch, 'honest.zip');
    const ok = new ZipFile();
    ok.addBuffer(Buffer.alloc(4096), 'CT/0001.dcm', { compress: true, forceZip64Format: true });
    ok.end();
    await pipeline(ok.outputStream as unknown as Readable, createWriteStream(honest));
    const e2 = await createExam(emu.info, emu.info.keys.pro, {
      name: 'ZIP64 sano',
      upload_mode: 'zip',
      zip_size_bytes: statSync(honest).size,
    });
    const up2 = await fetch(e2.upload_url?.url ?? '', {
      method: 'PUT',
      headers: { 'Content-Length': String(statSync(honest).size) },
      body: Readable.toWeb(createReadStream(honest)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    expect(up2.status).toBe(200);
    expect((await call('POST', `/exams/${e2.id}/process-zip`)).json).toMatchObject({
      status: 'ready',
      files_stored: 1,
    });
  });

  it('control faults: GET lists what is armed with the count left, DELETE disarms everything', async () => {
    const armed = await emu.control<{ armed: Fault[] }>('POST', '/faults', {
      target: 'api',
      mode: 'error500',
      count: 2,
      match: 'GET /api/v1/me',
    });
    expect(armed.armed).toEqual([{ target: 'api', mode: 'error500', count: 2, match: 'GET /api/v1/me' }]);
    expect((await emu.control<{ armed: Fault[] }>('GET', '/faults')).armed).toEqual(armed.armed);
    const hit = await call('GET', '/me');
    expect(hit.status).toBe(500);
    expect(hit.json.error?.code).toBe('internal_error');
    expect((await call('GET', '/exams?limit=1')).status).toBe(200);
    expect((await emu.control<{ armed: Fault[] }>('GET', '/faults')).armed).toEqual([
      { target: 'api', mode: 'error500', count: 1, match: 'GET /api/v1/me' },
    ]);
    expect(await emu.control('DELETE', '/faults')).toEqual({ armed: [] });
    expect((await emu.control<{ armed: Fault[] }>('GET', '/faults')).armed).toEqual([]);
    expect((await call('GET', '/me')).status).toBe(200);
  });

  it('control mail: GET /mail lists every e-mail sent; ?to= matches a To or a Cc address', async () => {
    const e = await readyExam(emu.info, emu.info.keys.pro, filesBody('Correo', [{ name: 'm.dcm', size: 2 }]));
    const share = await call('POST', `/exams/${e.id}/share`, {
      to: 'filtro.to@example.cl',
      cc: ['filtro.cc@example.cl'],
    });
    const id = share.json['email_id'] as string;
    const mail = async (query: string): Promise<Mail[]> =>
      (await emu.control<{ mail: Mail[] }>('GET', `/mail${query}`)).mail;
    const all = await mail('');
    const mine = all.find((m) => m.id === id);
    expect(mine).toMatchObject({
      kind: 'exam_share',
      to: ['filtro.to@example.cl'],
      cc: ['filtro.cc@example.cl'],
      exam_id: e.id,
    });
    expect(Object.keys(mine ?? {}).sort()).toEqual([
      'account_id',
      'attachments',
      'body',
      'cc',
      'created_at',
      'exam_id',
      'id',
      'kind',
      'subject',
      'to',
    ]);
    expect((await mail('?to=filtro.to%40example.cl')).map((m) => m.id)).toEqual([id]);
    expect((await mail('?to=filtro.cc%40example.cl')).map((m) => m.id)).toEqual([id]);
    expect(await mail('?to=nadie%40example.cl')).toEqual([]);
  });

  it('control clock: GET tells service time and scale; an advance of d carries out schedules of spec delay ≤ d and survives a restart', async () => {
    const t0 = await emu.control<Clock>('GET', '/clock');
    expect(t0.time_scale).toBe(0.5);
    expect(Math.abs(Date.parse(t0.now) - Date.now())).toBeLessThan(5000);

    // The thumbnail is due 30 s of spec time after ready (15 s of clock time at scale 0.5): advancing 30 s is enough.
    const e = await readyExam(emu.info, emu.info.keys.pro, filesBody('Reloj', [{ name: 'r.dcm', size: 4 }]));
    expect((await call('GET', `/exams/${e.id}/thumbnail`)).status).toBe(404);
    const t1 = await emu.control<Clock>('POST', '/clock', { advance_seconds: 30 });
    expect((await call('GET', `/exams/${e.id}/thumbnail`)).status).toBe(200);
    expect(Date.parse(t1.now) - Date.parse(t0.now)).toBeGreaterThanOrEqual(30_000);

    const t2 = await emu.control<Clock>('POST', '/clock', { advance_seconds: 86400 });
    expect(Date.parse(t2.now)).toBeGreaterThanOrEqual(Date.now() + 86_400_000);
    const saved = JSON.parse(readFileSync(join(emu.dataDir, 'state.json'), 'utf8')) as { clock_offset_ms?: number };
    expect(saved.clock_offset_ms).toBeGreaterThanOrEqual(86_430_000);
    emu = await emu.restart();
    const t3 = await emu.control<Clock>('GET', '/clock');
    expect(Date.parse(t3.now)).toBeGreaterThanOrEqual(Date.parse(t2.now));
    expect(Date.parse(t3.now)).toBeGreaterThanOrEqual(Date.now() + 86_400_000);
    for (const bad of [{ advance_seconds: -1 }, { advance_seconds: '60' }, {}]) {
      const r = await fetch(`${emu.info.control_url}/clock`, { method: 'POST', body: JSON.stringify(bad) });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
  });
});
