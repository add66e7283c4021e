import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';

type Referrer = {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  specialty: string | null;
  notes: string | null;
  created_at: string;
  updated_at: string;
};
type Detail = { field: string; message: string };

describe('emulator: referrers (§2.9, §4.6, §5.5)', () => {
  let emu: EmulatorProcess;
  let pro: string;
  const call = (method: string, path: string, body?: unknown, key?: string) =>
    api(emu.info, key ?? pro, method, path, body);

  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    pro = emu.info.keys.pro;
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('creates a referrer with 201, an rfr_ id and every field, and reads it back', async () => {
    const r = await call('POST', '/referrers', {
      name: 'Dra. Camila Soto',
      email: 'csoto@ortodoncia.cl',
      phone: '+56 9 8765 4321',
      specialty: 'Ortodoncia',
      notes: 'Prefiere informe en PDF',
    });
    expect(r.status).toBe(201);
    const ref = r.json as unknown as Referrer;
    expect(ref.id).toMatch(/^rfr_[a-z0-9]+$/);
    expect(ref).toMatchObject({
      name: 'Dra. Camila Soto',
      email: 'csoto@ortodoncia.cl',
      phone: '+56 9 8765 4321',
      specialty: 'Ortodoncia',
      notes: 'Prefiere informe en PDF',
    });
    expect(Date.parse(ref.created_at)).not.toBeNaN();
    expect(ref.updated_at).toBe(ref.created_at);
    const got = await call('GET', `/referrers/${ref.id}`);
    expect(got.status).toBe(200);
    expect(got.json).toEqual(r.json);
  });

  it('only name is required; absent optional fields are null', async () => {
    const r = await call('POST', '/referrers', { name: 'Dr. Ignacio Pérez' });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ name: 'Dr. Ignacio Pérez', email: null, phone: null, specialty: null, notes: null });
  });

  it('rejects a missing, empty or over-long name with 400 validation_error on field name', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(201) }, { name: 42 }]) {
      const r = await call('POST', '/referrers', body);
      expect(r.status).toBe(400);
      expect(r.json.error?.code).toBe('validation_error');
      expect((r.json.error?.['details'] as Detail[]).map((d) => d.field)).toContain('name');
    }
    const ok = await call('POST', '/referrers', { name: 'y'.repeat(200) });
    expect(ok.status).toBe(201);
    await call('DELETE', `/referrers/${(ok.json as unknown as Referrer).id}`);
  });

  it('validates the e-mail address and refuses unknown fields', async () => {
    for (const email of ['no-at-sign', 'a@b', 'two@@example.cl', 'spaces in@example.cl']) {
      const r = await call('POST', '/referrers', { name: 'Dr. Mal Correo', email });
      expect(r.status).toBe(400);
      expect((r.json.error?.['details'] as Detail[])[0]?.field).toBe('email');
    }
    const unknown = await call('POST', '/referrers', { name: 'Dr. Campo Extra', fax: '123' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error?.code).toBe('validation_error');
  });

  it('lists referrers sorted by name with Spanish, accent-insensitive collation', async () => {
    const names = [
      'Núñez, Rodrigo',
      'Álvarez, Paula',
      'Nuñez, Ana',
      'Zamora, Luis',
      'Ñancupil, Jorge',
      'Olivares, Tomás',
      'alvarado, Marta',
      'Nunez, Beatriz',
    ];
    for (const name of names) expect((await call('POST', '/referrers', { name })).status).toBe(201);
    const r = await call('GET', '/referrers');
    expect(r.status).toBe(200);
    const listed = (r.json['referrers'] as Referrer[]).map((x) => x.name).filter((n) => names.includes(n));
    // "ñ" is its own letter after "n" (so Nunez < Nuñez); accents and case do not decide the order.
    expect(listed).toEqual([
      'alvarado, Marta',
      'Álvarez, Paula',
      'Nunez, Beatriz',
      'Nuñez, Ana',
      'Núñez, Rodrigo',
      'Ñancupil, Jorge',
      'Olivares, Tomás',
      'Zamora, Luis',
    ]);
    const first = (r.json['referrers'] as Referrer[])[0];
    expect(Object.keys(first ?? {})).toEqual(
      expect.arrayContaining(['id', 'name', 'email', 'phone', 'specialty', 'notes', 'created_at', 'updated_at']),
    );
  });

  it('PATCH changes only the fields given, clears with null, and records activity', async () => {
    const created = (
      await call('POST', '/referrers', { name: 'Dr. Pablo Reyes', email: 'preyes@clinica.cl', specialty: 'Endodoncia' })
    ).json as unknown as Referrer;
    await new Promise((r) => setTimeout(r, 5));
    const r = await call('PATCH', `/referrers/${created.id}`, { specialty: 'Periodoncia', email: null });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      id: created.id,
      name: 'Dr. Pablo Reyes',
      specialty: 'Periodoncia',
      email: null,
      created_at: created.created_at,
    });
    expect(Date.parse(r.json['updated_at'] as string)).toBeGreaterThan(Date.parse(created.updated_at));
    const bad = await call('PATCH', `/referrers/${created.id}`, { email: 'not-an-email' });
    expect(bad.status).toBe(400);
    const empty = await call('PATCH', `/referrers/${created.id}`, {});
    expect(empty.status).toBe(400);
    const blankName = await call('PATCH', `/referrers/${created.id}`, { name: '' });
    expect(blankName.status).toBe(400);
    const act = await call('GET', '/activity?action=referrer.updated');
    const entries = act.json['activity'] as {
      resource_id: string;
      resource_type: string;
      data: { fields: string[] };
    }[];
    const mine = entries.find((e) => e.resource_id === created.id);
    expect(mine?.resource_type).toBe('referrer');
    expect(mine?.data.fields.sort()).toEqual(['email', 'specialty']);
  });

  it('GET or PATCH of an unknown id answers 404 not_found', async () => {
    expect((await call('GET', '/referrers/rfr_doesnotexist')).status).toBe(404);
    const p = await call('PATCH', '/referrers/rfr_doesnotexist', { name: 'X' });
    expect(p.status).toBe(404);
    expect(p.json.error?.code).toBe('not_found');
  });

  it('DELETE is idempotent: deleted, then already_deleted, and the record is gone', async () => {
    const created = (await call('POST', '/referrers', { name: 'Dr. Borrar Pronto' })).json as unknown as Referrer;
    const d1 = await call('DELETE', `/referrers/${created.id}`);
    expect(d1.status).toBe(200);
    expect(d1.json).toEqual({ deleted: true, id: created.id });
    const d2 = await call('DELETE', `/referrers/${created.id}`);
    expect(d2.status).toBe(200);
    expect(d2.json).toEqual({ deleted: true, id: created.id, already_deleted: true });
    expect((await call('GET', `/referrers/${created.id}`)).status).toBe(404);
    const acts = (await call('GET', '/activity?action=referrer.deleted')).json['activity'] as { resource_id: string }[];
    expect(acts.filter((a) => a.resource_id === created.id)).toHaveLength(1);
    const created2 = (await call('GET', '/activity?action=referrer.created')).json['activity'] as {
      resource_id: string;
    }[];
    expect(created2.some((a) => a.resource_id === created.id)).toBe(true);
  });

  it("another account's referrers are invisible (404 on read, already_deleted on delete)", async () => {
    const created = (await call('POST', '/referrers', { name: 'Dr. Privado' })).json as unknown as Referrer;
    const other = emu.info.keys.clinica;
    expect((await call('GET', `/referrers/${created.id}`, undefined, other)).status).toBe(404);
    expect(
      ((await call('GET', '/referrers', undefined, other)).json['referrers'] as Referrer[]).some(
        (r) => r.id === created.id,
      ),
    ).toBe(false);
    expect((await call('PATCH', `/referrers/${created.id}`, { name: 'Robado' }, other)).status).toBe(404);
    expect((await call('DELETE', `/referrers/${created.id}`, undefined, other)).json['already_deleted']).toBe(true);
    expect((await call('GET', `/referrers/${created.id}`)).json['name']).toBe('Dr. Privado');
  });

  it('needs referrers:read / referrers:write: the readonly key gets 403 insufficient_scope', async () => {
    const ro = emu.info.keys.readonly;
    const list = await call('GET', '/referrers', undefined, ro);
    expect(list.status).toBe(403);
    expect(list.json.error?.['required_scope']).toBe('referrers:read');
    const create = await call('POST', '/referrers', { name: 'X' }, ro);
    expect(create.status).toBe(403);
    expect(create.json.error?.['required_scope']).toBe('referrers:write');
  });

  describe('sandbox key', () => {
    it('reads an empty list even when the live account has referrers, and 404 on a live id', async () => {
      const live = (await call('GET', '/referrers')).json['referrers'] as Referrer[];
      expect(live.length).toBeGreaterThan(0);
      const r = await call('GET', '/referrers', undefined, emu.info.keys.sandbox);
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ referrers: [] });
      expect((await call('GET', `/referrers/${live[0]?.id}`, undefined, emu.info.keys.sandbox)).status).toBe(404);
    });

    it('create returns a validated rfr_test_ mock and stores nothing', async () => {
      const before = ((await call('GET', '/referrers')).json['referrers'] as Referrer[]).length;
      const actBefore = ((await call('GET', '/activity?limit=100')).json['activity'] as unknown[]).length;
      const r = await call(
        'POST',
        '/referrers',
        { name: 'Dra. Sandbox', email: 'sb@example.cl' },
        emu.info.keys.sandbox,
      );
      expect(r.status).toBe(201);
      expect(r.json['id']).toMatch(/^rfr_test_/);
      expect(r.json).toMatchObject({ name: 'Dra. Sandbox', email: 'sb@example.cl', test_mode: true });
      const bad = await call('POST', '/referrers', { email: 'sb@example.cl' }, emu.info.keys.sandbox);
      expect(bad.status).toBe(400);
      expect((await call('GET', `/referrers/${r.json['id'] as string}`, undefined, emu.info.keys.sandbox)).status).toBe(
        404,
      );
      expect(((await call('GET', '/referrers')).json['referrers'] as Referrer[]).length).toBe(before);
      expect(((await call('GET', '/activity?limit=100')).json['activity'] as unknown[]).length).toBe(actBefore);
    });

    it('PATCH returns a mock, DELETE answers {deleted, id, test_mode}, and the live record is untouched', async () => {
      const live = (await call('POST', '/referrers', { name: 'Dr. Intocable' })).json as unknown as Referrer;
      const p = await call('PATCH', `/referrers/${live.id}`, { name: 'Cambiado' }, emu.info.keys.sandbox);
      expect(p.status).toBe(200);
      expect(p.json['id']).toMatch(/^rfr_test_/);
      expect(p.json['test_mode']).toBe(true);
      const d = await call('DELETE', `/referrers/${live.id}`, undefined, emu.info.keys.sandbox);
      expect(d.json).toEqual({ deleted: true, id: live.id, test_mode: true });
      expect((await call('GET', `/referrers/${live.id}`)).json['name']).toBe('Dr. Intocable');
    });
  });
});
