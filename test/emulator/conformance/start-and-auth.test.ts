// Start line, keys, account, authentication, scopes, error shape and persistence across restarts
// (CONTRACTS.md §1, API-v1.md §2.1, §4.1, §5, §7).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { api, EmulatorProcess, type EmulatorInfo } from '../../support/emulator/emulator';
import {
  createExam,
  expectError,
  expectOk,
  expectValidationError,
  files,
  makePng,
  readyExam,
  unwrap,
} from '../../support/emulator/conformance-client';

const ALL_SCOPES = [
  'exams:read',
  'exams:write',
  'webhooks:write',
  'referrers:read',
  'referrers:write',
  'templates:read',
  'templates:write',
  'support:read',
  'support:write',
  'account:read',
  'account:write',
];

const Me = z
  .object({
    user_id: z.string().min(1),
    email: z.string().includes('@'),
    plan: z.string(),
    scopes: z.array(z.string()),
    storage: z.object({ used_bytes: z.number(), limit_bytes: z.number(), used_percent: z.number() }).loose(),
    exams: z.object({ count: z.number(), limit: z.number() }).loose(),
  })
  .loose();

let emu: EmulatorProcess;
let info: EmulatorInfo;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sb-conf-auth-'));
  emu = await EmulatorProcess.start({ dataDir });
  info = emu.info;
});
afterAll(async () => {
  await emu.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('start line', () => {
  it('npm run emulator prints one JSON line with base_url, control_url and the six keys, then serves', async () => {
    const data = mkdtempSync(join(tmpdir(), 'sb-conf-start-'));
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const child = spawn('npm', ['run', '-s', 'emulator', '--', '--port', '0', '--data', data], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no start line in 20 s')), 20_000);
        createInterface({ input: child.stdout }).once('line', (l) => {
          clearTimeout(timer);
          resolve(l);
        });
      });
      const start = z
        .object({
          base_url: z.string().regex(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/),
          control_url: z.string().regex(/^http:\/\/127\.0\.0\.1:\d+\/__emulator$/),
          keys: z.object({
            free: z.string(),
            pro: z.string(),
            clinica: z.string(),
            ultra: z.string(),
            sandbox: z.string().startsWith('cbct_test_'),
            readonly: z.string(),
          }),
        })
        .parse(JSON.parse(line));
      expect(new URL(start.base_url).port).toBe(new URL(start.control_url).port);
      expect(Number(new URL(start.base_url).port)).toBeGreaterThan(0);
      const me = await api(start, start.keys.pro, 'GET', '/me');
      expectOk(me, 200);
    } finally {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
      await new Promise((r) => child.once('exit', r));
      // npm exits before the emulator it started has finished its clean shutdown (which still
      // writes to the data folder): wait until the whole process group is gone.
      if (child.pid) await groupGone(child.pid);
      rmSync(data, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    }
  });

  it('keys: sandbox has the cbct_test_ prefix, live keys do not, all six differ', () => {
    const keys = Object.values(info.keys);
    expect(new Set(keys).size).toBe(6);
    expect(info.keys.sandbox.startsWith('cbct_test_')).toBe(true);
    for (const k of ['free', 'pro', 'clinica', 'ultra', 'readonly'] as const)
      expect(info.keys[k].startsWith('cbct_test_')).toBe(false);
  });
});

describe('GET /me', () => {
  it.each(['free', 'pro', 'clinica', 'ultra'] as const)(
    'the %s key is a live key with all scopes on an account of that plan',
    async (plan) => {
      const res = await api(info, info.keys[plan], 'GET', '/me');
      expectOk(res, 200);
      const me = Me.parse(res.json);
      expect(me.plan).toBe(plan);
      expect([...me.scopes].sort()).toEqual([...ALL_SCOPES].sort());
      expect(me.storage.limit_bytes).toBeGreaterThan(0);
    },
  );

  it('the sandbox and readonly keys belong to the pro account; readonly holds only exams:read and account:read', async () => {
    const pro = Me.parse((await api(info, info.keys.pro, 'GET', '/me')).json);
    const sandbox = await api(info, info.keys.sandbox, 'GET', '/me');
    expectOk(sandbox, 200);
    expect(Me.parse(sandbox.json).user_id).toBe(pro.user_id);
    const ro = await api(info, info.keys.readonly, 'GET', '/me');
    expectOk(ro, 200);
    const me = Me.parse(ro.json);
    expect(me.user_id).toBe(pro.user_id);
    expect([...me.scopes].sort()).toEqual(['account:read', 'exams:read']);
  });

  it('storage and exam counters follow what the account stores', async () => {
    const before = Me.parse((await api(info, info.keys.ultra, 'GET', '/me')).json);
    await readyExam(info, info.keys.ultra, { name: 'Counted' }, files(2, 'count', 5000));
    const after = Me.parse((await api(info, info.keys.ultra, 'GET', '/me')).json);
    expect(after.exams.count).toBe(before.exams.count + 1);
    expect(after.storage.used_bytes).toBeGreaterThanOrEqual(before.storage.used_bytes + 10_000);
    expect(after.storage.used_percent).toBeCloseTo((after.storage.used_bytes / after.storage.limit_bytes) * 100, 3);
    const { id } = await createExam(info, info.keys.ultra, files(1), { name: 'Counted then deleted' });
    expect(Me.parse((await api(info, info.keys.ultra, 'GET', '/me')).json).exams.count).toBe(before.exams.count + 2);
    expectOk(await api(info, info.keys.ultra, 'DELETE', `/exams/${id}`), 200);
    expect(Me.parse((await api(info, info.keys.ultra, 'GET', '/me')).json).exams.count).toBe(before.exams.count + 1);
  });

  it('the four plan accounts are distinct accounts', async () => {
    const ids = await Promise.all(
      (['free', 'pro', 'clinica', 'ultra'] as const).map(
        async (p) => Me.parse((await api(info, info.keys[p], 'GET', '/me')).json).user_id,
      ),
    );
    expect(new Set(ids).size).toBe(4);
  });
});

describe('authentication', () => {
  it('no Authorization header → 401 unauthorized', async () => {
    expectError(await api(info, null, 'GET', '/me'), 401, 'unauthorized');
    expectError(await api(info, null, 'GET', '/exams'), 401, 'unauthorized');
    expectError(
      await api(info, null, 'POST', '/exams', { name: 'x', files: [{ name: 'a', size: 1 }] }),
      401,
      'unauthorized',
    );
  });

  it('an unknown key → 401 unauthorized', async () => {
    expectError(await api(info, 'cbct_live_0000000000000000000000000000dead', 'GET', '/me'), 401, 'unauthorized');
    expectError(await api(info, 'cbct_test_0000000000000000000000000000dead', 'GET', '/exams'), 401, 'unauthorized');
  });

  it('a key sent without the Bearer scheme is not accepted', async () => {
    const res = await fetch(`${info.base_url}/me`, { headers: { Authorization: `Basic ${info.keys.pro}` } });
    const body: unknown = await res.json();
    expect(res.status).toBe(401);
    expect(
      z.object({ error: z.object({ code: z.literal('unauthorized'), message: z.string() }).loose() }).safeParse(body)
        .success,
    ).toBe(true);
  });
});

describe('scopes: the readonly key (exams:read, account:read)', () => {
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const pro = info.keys.pro;
    ids.exam = await readyExam(info, pro, { name: 'Scope target', patient_name: 'Ana Soto' });
    const zip = await api(info, pro, 'POST', '/exams', {
      name: 'Zip scope target',
      upload_mode: 'zip',
      zip_size_bytes: 100,
    });
    expectOk(zip, 201);
    ids.zip = String(zip.json.id);
    const extra = await api(info, pro, 'POST', `/exams/${ids.exam}/extras`, {
      label: 'Toma 2',
      files: [{ name: 'e.dcm', size: 4 }],
    });
    expectOk(extra);
    const consentExam = await readyExam(info, pro, { name: 'Consent scope target' });
    ids.consentExam = consentExam;
    expectOk(await api(info, pro, 'POST', `/exams/${consentExam}/consent`, { country_code: 'CL', locale: 'es' }));
    const wh = await api(info, pro, 'POST', '/webhooks', {
      url: 'https://hooks.example.com/scanbridge',
      events: ['test.ping'],
      description: 'scope',
    });
    expectOk(wh);
    ids.webhook = String(unwrap(wh.json, 'webhook').id);
    const rfr = await api(info, pro, 'POST', '/referrers', { name: 'Dra. Carmen Rojas' });
    expectOk(rfr);
    ids.referrer = String(unwrap(rfr.json, 'referrer').id);
    const tpl = await api(info, pro, 'POST', '/templates', {
      name: 'Mine',
      pages: [{ slots: [{ x: 0, y: 0, w: 1, h: 1 }] }],
    });
    expectOk(tpl);
    ids.template = String(unwrap(tpl.json, 'template').id);
  });

  const writes: [string, string, () => string, () => unknown][] = [
    ['exams:write', 'POST', () => '/exams', () => ({ name: 'x', files: [{ name: 'a.dcm', size: 1 }] })],
    ['exams:write', 'PATCH', () => `/exams/${ids.exam}`, () => ({ reason: 'changed by readonly' })],
    ['exams:write', 'POST', () => `/exams/${ids.exam}/confirm`, () => undefined],
    ['exams:write', 'POST', () => `/exams/${ids.zip}/process-zip`, () => undefined],
    ['exams:write', 'POST', () => `/exams/${ids.exam}/share`, () => ({ to: 'paciente@example.com' })],
    [
      'exams:write',
      'POST',
      () => `/exams/${ids.exam}/extras`,
      () => ({ label: 'x', files: [{ name: 'b.dcm', size: 1 }] }),
    ],
    ['exams:write', 'POST', () => `/exams/${ids.exam}/extras/1/confirm`, () => undefined],
    ['exams:write', 'POST', () => `/exams/${ids.exam}/access-pin`, () => undefined],
    ['exams:write', 'DELETE', () => `/exams/${ids.exam}/embed`, () => undefined],
    ['exams:write', 'POST', () => `/exams/${ids.consentExam}/consent`, () => ({ country_code: 'CL', locale: 'es' })],
    [
      'exams:write',
      'POST',
      () => `/exams/${ids.consentExam}/consent/sign-inperson`,
      () => ({
        signer_name: 'Ana Soto',
        signer_rut: '11.111.111-1',
        signature_image: makePng().toString('base64'),
        accepted: true,
      }),
    ],
    ['exams:write', 'POST', () => `/exams/${ids.consentExam}/consent/email`, () => ({ to: 'paciente@example.com' })],
    ['exams:write', 'DELETE', () => `/exams/${ids.exam}`, () => undefined],
    [
      'webhooks:write',
      'POST',
      () => '/webhooks',
      () => ({ url: 'https://hooks.example.com/x', events: ['test.ping'], description: 'x' }),
    ],
    ['webhooks:write', 'POST', () => `/webhooks/${ids.webhook}/test`, () => undefined],
    ['referrers:write', 'POST', () => '/referrers', () => ({ name: 'Dr. Readonly' })],
    ['referrers:write', 'PATCH', () => `/referrers/${ids.referrer}`, () => ({ phone: '+56 2 2222 2222' })],
    ['referrers:write', 'DELETE', () => `/referrers/${ids.referrer}`, () => undefined],
    [
      'templates:write',
      'POST',
      () => '/templates',
      () => ({ name: 'x', pages: [{ slots: [{ x: 0, y: 0, w: 1, h: 1 }] }] }),
    ],
    ['templates:write', 'PATCH', () => `/templates/${ids.template}`, () => ({ name: 'renamed' })],
    ['templates:write', 'DELETE', () => `/templates/${ids.template}`, () => undefined],
    ['support:write', 'POST', () => '/support/tickets', () => ({ subject: 'x', message: 'y' })],
    ['account:write', 'POST', () => '/notifications/mark-all-read', () => undefined],
  ];

  it.each(writes)('%s: %s is refused with 403 insufficient_scope', async (_scope, method, path, body) => {
    const res = await api(info, info.keys.readonly, method, path(), body());
    expectError(res, 403, 'insufficient_scope');
  });

  it('the refused writes changed nothing', async () => {
    const exam = await api(info, info.keys.pro, 'GET', `/exams/${ids.exam}`);
    expectOk(exam, 200);
    expect(exam.json.reason ?? null).toBeNull();
    const rfr = await api(info, info.keys.pro, 'GET', `/referrers/${ids.referrer}`);
    expectOk(rfr, 200);
    const tpl = await api(info, info.keys.pro, 'GET', `/templates/${ids.template}`);
    expectOk(tpl, 200);
    expect(unwrap(tpl.json, 'template').name).toBe('Mine');
  });

  it.each([['/referrers'], ['/templates'], ['/support/tickets']])(
    'GET %s needs a scope readonly lacks → 403 insufficient_scope',
    async (path) => {
      expectError(await api(info, info.keys.readonly, 'GET', path), 403, 'insufficient_scope');
    },
  );

  it.each([['/exams'], ['/implants'], ['/activity'], ['/notifications']])(
    'GET %s is allowed with exams:read / account:read',
    async (path) => {
      expectOk(await api(info, info.keys.readonly, 'GET', path), 200);
    },
  );

  it('GET /exams/{id} and its read sub-resources are allowed', async () => {
    for (const p of ['', '/access-pin', '/embed', '/patient-exams', '/consent']) {
      expectOk(await api(info, info.keys.readonly, 'GET', `/exams/${ids.exam}${p}`), 200);
    }
  });
});

describe('errors', () => {
  it('an unknown exam → 404 not_found', async () => {
    expectError(await api(info, info.keys.pro, 'GET', '/exams/exm_doesnotexist0000'), 404, 'not_found');
  });

  it("another account's exam is not visible (404 not_found)", async () => {
    const { id } = await createExam(info, info.keys.clinica, files(1), { name: 'Clinica private' });
    expectError(await api(info, info.keys.pro, 'GET', `/exams/${id}`), 404, 'not_found');
  });

  it('another account can neither change nor delete an exam (404 not_found, exam intact)', async () => {
    const id = await readyExam(info, info.keys.clinica, { name: 'Ajeno', reason: 'original' });
    expectError(await api(info, info.keys.pro, 'PATCH', `/exams/${id}`, { reason: 'hijacked' }), 404, 'not_found');
    const del = await api(info, info.keys.pro, 'DELETE', `/exams/${id}`);
    if (del.status >= 300) expectError(del, 404, 'not_found');
    for (const p of ['/access-pin', '/embed', '/consent', '/patient-exams']) {
      expectError(await api(info, info.keys.pro, 'GET', `/exams/${id}${p}`), 404, 'not_found');
    }
    const still = await api(info, info.keys.clinica, 'GET', `/exams/${id}`);
    expectOk(still, 200);
    expect(still.json).toMatchObject({ reason: 'original', status: 'ready' });
  });

  it('an unknown path or method answers a well-formed error', async () => {
    const unknown = await api(info, info.keys.pro, 'GET', '/no-such-resource');
    expect(unknown.status).toBe(404);
    if ((unknown.headers.get('content-type') ?? '').includes('json')) expectError(unknown, 404);
    const method = await api(info, info.keys.pro, 'PUT', '/exams', { name: 'x' });
    expect(method.status).toBeGreaterThanOrEqual(400);
    if ((method.headers.get('content-type') ?? '').includes('json')) expectError(method);
  });

  it('webhook URLs must be public: private and loopback HTTPS hosts are refused', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://10.1.2.3/hook',
      'https://192.168.0.10/hook',
    ]) {
      expectValidationError(
        await api(info, info.keys.pro, 'POST', '/webhooks', { url, events: ['test.ping'], description: 'private' }),
        'url',
      );
    }
  });

  it('malformed JSON → 400 validation_error with details', async () => {
    const res = await api(info, info.keys.pro, 'POST', '/exams', '{"name": "broken", "files": [');
    expectValidationError(res);
    const res2 = await api(info, info.keys.pro, 'POST', '/referrers', '{name: nope}');
    expectValidationError(res2);
  });

  it('a JSON body that is not an object → 400 validation_error', async () => {
    expectValidationError(await api(info, info.keys.pro, 'POST', '/exams', '[]'));
    expectValidationError(await api(info, info.keys.pro, 'POST', '/referrers', '"Dr. String"'));
  });

  it('presigned URLs live 3600 s by default', async () => {
    const { urls, json } = await createExam(info, info.keys.pro, files(1), { name: 'Default TTL' });
    const lifetime = (Date.parse(urls[0]?.expires_at ?? '') - Date.parse(String(json.created_at))) / 1000;
    expect(lifetime).toBeGreaterThan(3590);
    expect(lifetime).toBeLessThanOrEqual(3610);
  });

  it('a missing required field → 400 validation_error naming the field', async () => {
    expectValidationError(
      await api(info, info.keys.pro, 'POST', '/exams', { files: [{ name: 'a.dcm', size: 1 }] }),
      'name',
    );
    expectValidationError(await api(info, info.keys.pro, 'POST', '/referrers', { email: 'x@example.com' }), 'name');
  });

  it('webhook URLs must be HTTPS when --insecure-webhooks is off', async () => {
    const http = await api(info, info.keys.pro, 'POST', '/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['test.ping'],
      description: 'plain',
    });
    expectValidationError(http, 'url');
    const https = await api(info, info.keys.pro, 'POST', '/webhooks', {
      url: 'https://hooks.example.com/ok',
      events: ['test.ping'],
      description: 'tls',
    });
    expectOk(https);
    expect(unwrap(https.json, 'webhook').enabled).toBe(true);
  });
});

describe('restart', () => {
  it('a restart on the same data keeps the keys and the records; SIGTERM exits 0', async () => {
    const examId = await readyExam(info, info.keys.ultra, { name: 'Survives restart', patient_id: '12.345.678-9' });
    const rfr = await api(info, info.keys.ultra, 'POST', '/referrers', {
      name: 'Dr. Persistente',
      email: 'p@example.com',
    });
    expectOk(rfr);
    const before = info.keys;
    const exit = await emu.stop('SIGTERM');
    expect(exit).toBe(0);
    emu = await EmulatorProcess.start({ dataDir: emu.dataDir });
    info = emu.info;
    expect(info.keys).toEqual(before);
    const exam = await api(info, info.keys.ultra, 'GET', `/exams/${examId}`);
    expectOk(exam, 200);
    expect(exam.json.name).toBe('Survives restart');
    expect(exam.json.status).toBe('ready');
    expect(exam.json.patient_id).toBe('12.345.678-9');
    const r = await api(info, info.keys.ultra, 'GET', `/referrers/${String(unwrap(rfr.json, 'referrer').id)}`);
    expectOk(r, 200);
    expect(unwrap(r.json, 'referrer').name).toBe('Dr. Persistente');
  });

  it('SIGINT also shuts down cleanly with exit 0', async () => {
    const exit = await emu.stop('SIGINT');
    expect(exit).toBe(0);
    emu = await EmulatorProcess.start({ dataDir: emu.dataDir });
    info = emu.info;
    expectOk(await api(info, info.keys.pro, 'GET', '/me'), 200);
  });
});

/** Resolves once no process of the group `pgid` is left (checked every 50 ms, at most 20 s). */
async function groupGone(pgid: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    if (Date.now() > deadline) throw new Error(`process group ${pgid} still running 20 s after SIGTERM`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
