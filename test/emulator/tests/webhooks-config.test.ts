import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';

/** Webhook subscriptions without --insecure-webhooks: the URL policy, CRUD, secrets, scopes. */
describe('emulator: webhook subscriptions (HTTPS only)', () => {
  let emu: EmulatorProcess;
  let key: string;
  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    key = emu.info.keys.pro;
  });
  afterAll(async () => {
    await emu.dispose();
  });

  const create = (body: unknown, k = key) => api(emu.info, k, 'POST', '/webhooks', body);

  it('creates a subscription and shows its whsec_ secret only in the creation answer', async () => {
    const r = await create({
      url: 'https://hooks.clinica.example/scanbridge',
      events: ['exam.confirmed', 'report.signed'],
      description: 'PACS bridge',
    });
    expect(r.status).toBe(201);
    expect(Object.keys(r.json).sort()).toEqual([
      'created_at',
      'description',
      'enabled',
      'events',
      'id',
      'secret',
      'url',
    ]);
    expect(r.json['id']).toMatch(/^wh_/);
    expect(r.json['secret']).toMatch(/^whsec_[A-Za-z0-9_-]{20,}$/);
    expect(r.json['enabled']).toBe(true);
    expect(r.json['events']).toEqual(['exam.confirmed', 'report.signed']);
    const id = r.json['id'] as string;
    const secret = r.json['secret'] as string;

    const one = await api(emu.info, key, 'GET', `/webhooks/${id}`);
    expect(one.status).toBe(200);
    expect(one.json['secret']).toBeUndefined();
    expect(one.json['secret_prefix']).toBe(secret.slice(0, 10));
    expect(one.json['consecutive_failures']).toBe(0);
    expect(one.json['disabled_reason']).toBeNull();
    expect(one.json['description']).toBe('PACS bridge');

    const list = await api(emu.info, key, 'GET', '/webhooks');
    const hooks = list.json['webhooks'] as Record<string, unknown>[];
    const mine = hooks.find((h) => h['id'] === id);
    expect(mine?.['secret_prefix']).toBe(secret.slice(0, 10));
    expect(JSON.stringify(list.json)).not.toContain(secret);
  });

  it('refuses http:// URLs and loopback or private HTTPS hosts without --insecure-webhooks', async () => {
    for (const url of [
      'http://hooks.clinica.example/x',
      'http://127.0.0.1:9/x',
      'https://127.0.0.1/x',
      'https://localhost/x',
      'https://api.localhost/x',
      'https://10.1.2.3/x',
      'https://172.20.0.1/x',
      'https://192.168.0.10/x',
      'https://169.254.169.254/latest',
      'https://[::1]/x',
      'https://[fd00::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://0.0.0.0/x',
      'ftp://hooks.clinica.example/x',
      'not a url',
      'https://user:pass@hooks.clinica.example/x',
    ]) {
      const r = await create({ url, events: ['exam.created'] });
      expect(r.status, url).toBe(400);
      expect(r.json.error?.code).toBe('validation_error');
      expect((r.json.error?.['details'] as { field: string }[])[0]?.field).toBe('url');
    }
    expect((await create({ url: 'https://203.0.113.7:8443/hook', events: ['exam.created'] })).status).toBe(201);
  });

  it('requires a non-empty list of §6.1 event types and rejects unknown fields', async () => {
    const url = 'https://hooks.clinica.example/events';
    for (const body of [
      { url, events: [] },
      { url, events: ['exam.viewed'] },
      { url, events: 'exam.created' },
      { url },
      { events: ['exam.created'] },
      { url, events: ['exam.created'], secret: 'whsec_mine' },
      { url, events: ['exam.created'], description: 'x'.repeat(501) },
    ]) {
      const r = await create(body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.json.error?.code).toBe('validation_error');
    }
    const all = [
      'exam.created',
      'exam.confirmed',
      'exam.deleted',
      'exam.updated',
      'exam.shared',
      'exam.extra_added',
      'report.published',
      'report.signed',
      'test.ping',
    ];
    const ok = await create({ url, events: [...all, 'exam.created'] });
    expect(ok.status).toBe(201);
    expect(ok.json['events']).toEqual(all);
    expect(ok.json['description']).toBe('');
  });

  it('PATCH changes only events, description and enabled', async () => {
    const { json } = await create({
      url: 'https://hooks.clinica.example/patch',
      events: ['exam.created'],
      description: 'before',
    });
    const id = json['id'] as string;
    const r = await api(emu.info, key, 'PATCH', `/webhooks/${id}`, {
      events: ['exam.deleted', 'exam.updated'],
      enabled: false,
    });
    expect(r.status).toBe(200);
    expect(r.json['events']).toEqual(['exam.deleted', 'exam.updated']);
    expect(r.json['enabled']).toBe(false);
    expect(r.json['description']).toBe('before');
    const d = await api(emu.info, key, 'PATCH', `/webhooks/${id}`, { description: 'after', enabled: true });
    expect(d.json['description']).toBe('after');
    expect(d.json['enabled']).toBe(true);
    expect((await api(emu.info, key, 'GET', `/webhooks/${id}`)).json['events']).toEqual([
      'exam.deleted',
      'exam.updated',
    ]);

    for (const body of [{}, { url: 'https://other.example/x' }, { events: [] }, { enabled: 'yes' }, { secret: 'x' }]) {
      const bad = await api(emu.info, key, 'PATCH', `/webhooks/${id}`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.json.error?.code).toBe('validation_error');
    }
    expect((await api(emu.info, key, 'PATCH', '/webhooks/wh_unknown', { enabled: false })).status).toBe(404);
  });

  it('DELETE removes a subscription for good: later reads, updates and deletes answer 404', async () => {
    const { json } = await create({ url: 'https://hooks.clinica.example/gone', events: ['exam.created'] });
    const id = json['id'] as string;
    const del = await api(emu.info, key, 'DELETE', `/webhooks/${id}`);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ deleted: true, id });
    for (const [method, path, body] of [
      ['GET', `/webhooks/${id}`],
      ['PATCH', `/webhooks/${id}`, { enabled: true }],
      ['DELETE', `/webhooks/${id}`],
      ['POST', `/webhooks/${id}/test`],
      ['GET', `/webhooks/${id}/deliveries`],
    ] as const) {
      const r = await api(emu.info, key, method, path, body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.json.error?.code).toBe('not_found');
    }
    const list = await api(emu.info, key, 'GET', '/webhooks');
    expect((list.json['webhooks'] as { id: string }[]).some((h) => h.id === id)).toBe(false);
  });

  it('a fresh subscription has an empty delivery log', async () => {
    const { json } = await create({ url: 'https://hooks.clinica.example/log', events: ['exam.created'] });
    const r = await api(emu.info, key, 'GET', `/webhooks/${json['id'] as string}/deliveries`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ deliveries: [] });
  });

  it('every webhooks endpoint needs webhooks:write', async () => {
    const { json } = await create({ url: 'https://hooks.clinica.example/scope', events: ['exam.created'] });
    const id = json['id'] as string;
    const ro = emu.info.keys.readonly;
    for (const [method, path, body] of [
      ['POST', '/webhooks', { url: 'https://hooks.clinica.example/x', events: ['exam.created'] }],
      ['GET', '/webhooks'],
      ['GET', `/webhooks/${id}`],
      ['PATCH', `/webhooks/${id}`, { enabled: false }],
      ['DELETE', `/webhooks/${id}`],
      ['POST', `/webhooks/${id}/test`],
      ['GET', `/webhooks/${id}/deliveries`],
    ] as const) {
      const r = await api(emu.info, ro, method, path, body);
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.json.error?.code).toBe('insufficient_scope');
      expect(r.json.error?.['required_scope']).toBe('webhooks:write');
    }
    expect((await api(emu.info, key, 'GET', `/webhooks/${id}`)).json['enabled']).toBe(true);
  });

  it('keeps subscriptions of other accounts and of sandbox keys apart', async () => {
    const { json } = await create({ url: 'https://hooks.clinica.example/apart', events: ['exam.created'] });
    const id = json['id'] as string;
    expect((await api(emu.info, emu.info.keys.free, 'GET', `/webhooks/${id}`)).status).toBe(404);
    expect((await api(emu.info, emu.info.keys.free, 'DELETE', `/webhooks/${id}`)).status).toBe(404);
    expect((await api(emu.info, emu.info.keys.sandbox, 'GET', `/webhooks/${id}`)).status).toBe(404);

    const sb = await create(
      { url: 'https://hooks.clinica.example/sandbox', events: ['exam.created'] },
      emu.info.keys.sandbox,
    );
    expect(sb.status).toBe(201);
    const sbList = (await api(emu.info, emu.info.keys.sandbox, 'GET', '/webhooks')).json['webhooks'] as {
      id: string;
    }[];
    expect(sbList.map((h) => h.id)).toEqual([sb.json['id']]);
    const live = (await api(emu.info, key, 'GET', '/webhooks')).json['webhooks'] as { id: string }[];
    expect(live.some((h) => h.id === sb.json['id'])).toBe(false);
    expect(live.some((h) => h.id === id)).toBe(true);
  });
});
