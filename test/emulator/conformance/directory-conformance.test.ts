// Referrers, report templates, implant catalog, support tickets, activity and notifications
// (API-v1.md §2.9–2.13, §4.6–4.10, §8.2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { api, EmulatorProcess, type EmulatorInfo } from '../../support/emulator/emulator';
import {
  createExam,
  expectError,
  expectOk,
  expectValidationError,
  files,
  getBytes,
  ISO_TIMESTAMP,
  listIn,
  Obj,
  readyExam,
  sleep,
  stringsIn,
  unwrap,
} from '../../support/emulator/conformance-client';

let emu: EmulatorProcess;
let info: EmulatorInfo;
let pro: string;

beforeAll(async () => {
  emu = await EmulatorProcess.start();
  info = emu.info;
  pro = info.keys.pro;
});
afterAll(async () => {
  await emu.dispose();
});

describe('referrers', () => {
  const Referrer = z.object({ id: z.string().startsWith('rfr_'), name: z.string() }).loose();
  const post = async (body: Record<string, unknown>) => {
    const res = await api(info, pro, 'POST', '/referrers', body);
    expectOk(res);
    return Referrer.parse(unwrap(res.json, 'referrer'));
  };

  it('creates with name, email, phone and specialty; name is required', async () => {
    const r = await post({
      name: 'Dra. Carla Mena',
      email: 'carla@example.com',
      phone: '+56 9 1111 1111',
      specialty: 'Endodoncia',
    });
    expect(r).toMatchObject({
      name: 'Dra. Carla Mena',
      email: 'carla@example.com',
      phone: '+56 9 1111 1111',
      specialty: 'Endodoncia',
    });
    const one = await api(info, pro, 'GET', `/referrers/${r.id}`);
    expectOk(one, 200);
    expect(unwrap(one.json, 'referrer')).toMatchObject({
      id: r.id,
      name: 'Dra. Carla Mena',
      email: 'carla@example.com',
    });
    expectValidationError(await api(info, pro, 'POST', '/referrers', { email: 'x@example.com' }), 'name');
  });

  it('lists {referrers: [...]} sorted alphabetically by name', async () => {
    const c = await post({ name: 'Cecilia Paz' });
    const a = await post({ name: 'Alberto Ríos' });
    const b = await post({ name: 'Bruno Díaz' });
    const res = await api(info, pro, 'GET', '/referrers');
    expectOk(res, 200);
    const list = z
      .object({ referrers: z.array(Referrer) })
      .loose()
      .parse(res.json).referrers;
    const ids = list.map((r) => r.id).filter((id) => [a.id, b.id, c.id].includes(id));
    expect(ids).toEqual([a.id, b.id, c.id]);
    const names = list.map((r) => r.name.toLocaleLowerCase('es'));
    expect(names).toEqual([...names].sort((x, y) => x.localeCompare(y, 'es')));
  });

  it('alphabetical order ignores letter case and accents', async () => {
    const b = await post({ name: 'Beatriz Lagos' });
    const c = await post({ name: 'carlos Díaz' });
    const a = await post({ name: 'Álvaro Soto' });
    const list = z
      .object({ referrers: z.array(Referrer) })
      .loose()
      .parse((await api(info, pro, 'GET', '/referrers')).json).referrers;
    expect(list.map((r) => r.id).filter((id) => [a.id, b.id, c.id].includes(id))).toEqual([a.id, b.id, c.id]);
  });

  it('PATCH changes only the included fields', async () => {
    const r = await post({ name: 'Dr. Tomás Lira', email: 'tomas@example.com', specialty: 'Periodoncia' });
    expectOk(await api(info, pro, 'PATCH', `/referrers/${r.id}`, { phone: '+56 2 2345 6789' }), 200);
    const got = unwrap((await api(info, pro, 'GET', `/referrers/${r.id}`)).json, 'referrer');
    expect(got).toMatchObject({
      name: 'Dr. Tomás Lira',
      email: 'tomas@example.com',
      specialty: 'Periodoncia',
      phone: '+56 2 2345 6789',
    });
  });

  it('DELETE is idempotent: a repeat or an unknown id answers already_deleted=true', async () => {
    const r = await post({ name: 'Dr. Borrable' });
    const first = await api(info, pro, 'DELETE', `/referrers/${r.id}`);
    expectOk(first);
    expect(first.json.already_deleted ?? false).toBe(false);
    const again = await api(info, pro, 'DELETE', `/referrers/${r.id}`);
    expectOk(again);
    expect(again.json.already_deleted).toBe(true);
    const unknown = await api(info, pro, 'DELETE', '/referrers/rfr_neverexisted000');
    expectOk(unknown);
    expect(unknown.json.already_deleted).toBe(true);
    expectError(await api(info, pro, 'GET', `/referrers/${r.id}`), 404, 'not_found');
  });

  it("another account does not see this account's referrers", async () => {
    const r = await post({ name: 'Dra. Privada' });
    expect(stringsIn((await api(info, info.keys.ultra, 'GET', '/referrers')).json)).not.toContain(r.id);
    expectError(await api(info, info.keys.ultra, 'GET', `/referrers/${r.id}`), 404, 'not_found');
  });
});

describe('report templates', () => {
  const Slot = z
    .object({
      x: z.number().min(0).max(1),
      y: z.number().min(0).max(1),
      w: z.number().min(0).max(1),
      h: z.number().min(0).max(1),
    })
    .loose();
  const Template = z
    .object({
      id: z.string().startsWith('tpl_'),
      name: z.string(),
      is_default: z.boolean(),
      pages: z.array(z.object({ slots: z.array(Slot) }).loose()),
    })
    .loose();
  const list = async (key = pro) => {
    const res = await api(info, key, 'GET', '/templates');
    expectOk(res, 200);
    return z.array(Template).parse(listIn(res.json, 'templates'));
  };
  const valid = {
    name: 'Implante unitario',
    description: 'Dos cortes y una panorámica',
    pages: [
      {
        name: 'Página 1',
        slots: [
          { x: 0, y: 0, w: 1, h: 0.5, label: 'Panorámica' },
          { x: 0.5, y: 0.5, w: 0.5, h: 0.5 },
        ],
      },
    ],
  };

  it('lists system defaults (is_default=true) with slot coordinates in 0..1', async () => {
    const all = await list();
    expect(all.some((t) => t.is_default)).toBe(true);
  });

  it('creates an own template (not default), readable alone and in the list', async () => {
    const res = await api(info, pro, 'POST', '/templates', valid);
    expectOk(res);
    const t = Template.parse(unwrap(res.json, 'template'));
    expect(t.is_default).toBe(false);
    expect(t).toMatchObject({ name: valid.name, description: valid.description });
    expect(t.pages[0]?.slots).toHaveLength(2);
    expect(t.pages[0]?.slots[0]).toMatchObject({ x: 0, y: 0, w: 1, h: 0.5, label: 'Panorámica' });
    const one = await api(info, pro, 'GET', `/templates/${t.id}`);
    expectOk(one, 200);
    expect(Template.parse(unwrap(one.json, 'template')).id).toBe(t.id);
    const all = await list();
    expect(all.map((x) => x.id)).toContain(t.id);
    expect(all.some((x) => x.is_default)).toBe(true);
    expect((await list(info.keys.ultra)).map((x) => x.id)).not.toContain(t.id);
  });

  it.each([
    ['x above 1', { x: 1.2, y: 0, w: 0.1, h: 0.1 }],
    ['y below 0', { x: 0, y: -0.1, w: 0.1, h: 0.1 }],
    ['w above 1', { x: 0, y: 0, w: 1.5, h: 0.1 }],
    ['h below 0', { x: 0, y: 0, w: 0.1, h: -1 }],
    ['x not a number', { x: 'left', y: 0, w: 0.1, h: 0.1 }],
  ])('a slot with %s is a validation error', async (_what, slot) => {
    expectValidationError(
      await api(info, pro, 'POST', '/templates', { name: 'Bad', pages: [{ slots: [slot] }] }),
      'pages',
    );
  });

  it('a template needs a name', async () => {
    expectValidationError(await api(info, pro, 'POST', '/templates', { pages: valid.pages }), 'name');
  });

  it('system defaults are read-only: PATCH and DELETE give 400 and change nothing', async () => {
    const sys = (await list()).find((t) => t.is_default);
    expect(sys).toBeDefined();
    const id = sys?.id ?? '';
    const one = await api(info, pro, 'GET', `/templates/${id}`);
    expectOk(one, 200);
    expectError(await api(info, pro, 'PATCH', `/templates/${id}`, { name: 'Hijacked' }), 400);
    expectError(await api(info, pro, 'DELETE', `/templates/${id}`), 400);
    const after = (await list()).find((t) => t.id === id);
    expect(after?.name).toBe(sys?.name);
  });

  it('an own template can be renamed and deleted; DELETE is idempotent', async () => {
    const t = Template.parse(unwrap((await api(info, pro, 'POST', '/templates', valid)).json, 'template'));
    expectOk(await api(info, pro, 'PATCH', `/templates/${t.id}`, { name: 'Renombrada' }), 200);
    const got = Template.parse(unwrap((await api(info, pro, 'GET', `/templates/${t.id}`)).json, 'template'));
    expect(got.name).toBe('Renombrada');
    expect(got.pages).toEqual(t.pages);
    expectValidationError(
      await api(info, pro, 'PATCH', `/templates/${t.id}`, { pages: [{ slots: [{ x: 2, y: 0, w: 0.1, h: 0.1 }] }] }),
      'pages',
    );
    expectOk(await api(info, pro, 'DELETE', `/templates/${t.id}`));
    expectOk(await api(info, pro, 'DELETE', `/templates/${t.id}`));
    expectError(await api(info, pro, 'GET', `/templates/${t.id}`), 404, 'not_found');
  });
});

describe('implant catalog', () => {
  const Entry = z
    .object({ brand: z.string(), product_line: z.string(), length: z.number(), diameter: z.number() })
    .loose();
  const get = async (query: string) => {
    const res = await api(info, pro, 'GET', `/implants${query}`);
    expectOk(res, 200);
    return res.json;
  };
  let sample: z.infer<typeof Entry>;

  it('without parameters lists brands with a count per brand', async () => {
    const brands = listIn(await get(''), 'brands').map((b) => Obj.parse(b));
    expect(brands.length).toBeGreaterThan(1);
    for (const b of brands) {
      expect(typeof b.brand).toBe('string');
      expect(Object.values(b).some((v) => typeof v === 'number' && v > 0)).toBe(true);
    }
  });

  it('brand= lists models of that brand only, paginated by limit and offset', async () => {
    const brands = listIn(await get(''), 'brands').map((b) => Obj.parse(b));
    const brand = String(brands[0]?.brand);
    const models = z.array(Entry).parse(listIn(await get(`?brand=${encodeURIComponent(brand)}`)));
    expect(models.length).toBeGreaterThan(0);
    for (const m of models) expect(m.brand).toBe(brand);
    sample = models[0] as z.infer<typeof Entry>;
    const p1 = z.array(Entry).parse(listIn(await get(`?brand=${encodeURIComponent(brand)}&limit=2&offset=0`)));
    const p2 = z.array(Entry).parse(listIn(await get(`?brand=${encodeURIComponent(brand)}&limit=2&offset=2`)));
    expect(p1.length).toBe(2);
    expect(p2.length).toBeGreaterThan(0);
    expect(p2.length).toBeLessThanOrEqual(2);
    expect(p2.map((m) => JSON.stringify(m))).not.toContain(JSON.stringify(p1[0]));
    expect(p2.map((m) => JSON.stringify(m))).not.toContain(JSON.stringify(p1[1]));
  });

  it('search= matches free text over brand and product_line', async () => {
    const term = sample.product_line.split(/\s+/)[0]?.toLowerCase() ?? '';
    const results = z.array(Entry).parse(listIn(await get(`?search=${encodeURIComponent(term)}`)));
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) expect(`${r.brand} ${r.product_line}`.toLowerCase()).toContain(term);
    const byBrand = z
      .array(Entry)
      .parse(listIn(await get(`?search=${encodeURIComponent(sample.brand.toLowerCase())}`)));
    expect(byBrand.some((r) => r.brand === sample.brand)).toBe(true);
  });

  it('length & diameter do an inverse lookup with near_matches within 0.5 mm', async () => {
    const json = Obj.parse(await get(`?length=${sample.length}&diameter=${sample.diameter}`));
    const near = z.array(Entry).parse(json.near_matches);
    const exactKey = Object.keys(json).filter((k) => k !== 'near_matches' && Array.isArray(json[k]));
    expect(exactKey).toHaveLength(1);
    const exact = z.array(Entry).parse(json[exactKey[0] ?? '']);
    expect(exact.length).toBeGreaterThan(0);
    for (const e of exact) {
      expect(e.length).toBe(sample.length);
      expect(e.diameter).toBe(sample.diameter);
    }
    for (const n of near) {
      expect(Math.abs(n.length - sample.length)).toBeLessThanOrEqual(0.5 + 1e-9);
      expect(Math.abs(n.diameter - sample.diameter)).toBeLessThanOrEqual(0.5 + 1e-9);
    }
    const nearOnly = Obj.parse(await get(`?length=${sample.length + 0.3}&diameter=${sample.diameter}`));
    const near2 = z.array(Entry).parse(nearOnly.near_matches);
    expect(
      near2.some(
        (n) => n.brand === sample.brand && n.product_line === sample.product_line && n.length === sample.length,
      ),
    ).toBe(true);
  });
});

describe('support tickets', () => {
  const Ticket = z.object({ id: z.string().startsWith('tkt_') }).loose();
  const post = async (body: Record<string, unknown>) => {
    const res = await api(info, pro, 'POST', '/support/tickets', body);
    expectOk(res);
    return Ticket.parse(unwrap(res.json, 'ticket'));
  };
  const mail = async () => listIn(await emu.control('GET', '/mail'), 'mail');

  it.each(['general', 'bug', 'billing', 'feature_request', 'account', 'viewer'])(
    'category %s is accepted',
    async (category) => {
      await post({ subject: `Consulta ${category}`, message: 'Detalle', category });
    },
  );

  it('invalid input is a validation error', async () => {
    expectValidationError(
      await api(info, pro, 'POST', '/support/tickets', { subject: 's', message: 'm', category: 'urgent' }),
      'category',
    );
    expectValidationError(await api(info, pro, 'POST', '/support/tickets', { message: 'm' }), 'subject');
    expectValidationError(await api(info, pro, 'POST', '/support/tickets', { subject: 's' }), 'message');
  });

  it('live: one e-mail to the support team and one confirmation to the requester', async () => {
    const me = z
      .object({ email: z.string() })
      .loose()
      .parse((await api(info, pro, 'GET', '/me')).json);
    const before = await mail();
    const toMe = (m: unknown[]) => m.filter((x) => stringsIn(x).includes(me.email)).length;
    const examId = await readyExam(info, pro, { name: 'Ticket exam' });
    const t = await post({
      subject: 'El visor no carga',
      message: 'Pantalla en blanco',
      category: 'viewer',
      exam_id: examId,
    });
    const after = await mail();
    expect(after.length - before.length).toBe(2);
    expect(toMe(after) - toMe(before)).toBeGreaterThanOrEqual(1);
    expect(
      after
        .slice(before.length)
        .every((m) => stringsIn(m).some((s) => s.includes(t.id) || s.includes('El visor no carga'))),
    ).toBe(true);
  });

  it('GET one gives {ticket, replies} with admin replies in chronological order', async () => {
    const t = await post({ subject: 'Facturación', message: 'Duda', category: 'billing' });
    const empty = await api(info, pro, 'GET', `/support/tickets/${t.id}`);
    expectOk(empty, 200);
    expect(
      z
        .object({ ticket: Ticket, replies: z.array(z.unknown()) })
        .loose()
        .parse(empty.json).replies,
    ).toEqual([]);
    await emu.control('POST', `/tickets/${t.id}/replies`, { body: 'Primera respuesta' });
    await sleep(5);
    await emu.control('POST', `/tickets/${t.id}/replies`, { body: 'Segunda respuesta' });
    const res = await api(info, pro, 'GET', `/support/tickets/${t.id}`);
    const parsed = z
      .object({ ticket: Ticket, replies: z.array(z.object({ body: z.string(), created_at: z.string() }).loose()) })
      .loose()
      .parse(res.json);
    expect(parsed.ticket.id).toBe(t.id);
    expect(parsed.replies.map((r) => r.body)).toEqual(['Primera respuesta', 'Segunda respuesta']);
    for (const r of parsed.replies) expect(r.created_at).toMatch(ISO_TIMESTAMP);
    const times = parsed.replies.map((r) => Date.parse(r.created_at));
    expect(times.every((x) => !Number.isNaN(x))).toBe(true);
    expect(times[0]).toBeLessThanOrEqual(times[1] ?? 0);
  });

  it('the list holds the 50 most recent by default, and honours limit', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 52; i++) {
      ids.push((await post({ subject: `Lote ${i}`, message: 'x' })).id);
      await sleep(2);
    }
    const res = await api(info, pro, 'GET', '/support/tickets');
    expectOk(res, 200);
    const got = z
      .array(Ticket)
      .parse(listIn(res.json, 'tickets'))
      .map((t) => t.id);
    expect(got).toHaveLength(50);
    expect(new Set(got)).toEqual(new Set(ids.slice(-50)));
    const three = z
      .array(Ticket)
      .parse(listIn((await api(info, pro, 'GET', '/support/tickets?limit=3')).json, 'tickets'))
      .map((t) => t.id);
    expect(new Set(three)).toEqual(new Set(ids.slice(-3)));
  });

  it("another account cannot read this account's ticket", async () => {
    const t = await post({ subject: 'Privado', message: 'x' });
    expectError(await api(info, info.keys.ultra, 'GET', `/support/tickets/${t.id}`), 404, 'not_found');
  });
});

describe('activity', () => {
  const key = () => info.keys.clinica;
  const Page = z.object({ next_cursor: z.string().nullable().optional() }).loose();
  const Entry = z.object({ action: z.string() }).loose();
  const read = async (query: string) => {
    const res = await api(info, key(), 'GET', `/activity${query}`);
    expectOk(res, 200);
    return {
      entries: z.array(Entry).parse(listIn(Obj.parse(res.json), 'activity')),
      cursor: Page.parse(res.json).next_cursor ?? null,
    };
  };
  const created: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 55; i++) {
      created.push((await createExam(info, key(), files(1), { name: `Actividad ${i}` })).id);
      await sleep(3);
    }
    for (const id of created.slice(0, 3)) {
      expectOk(await api(info, key(), 'DELETE', `/exams/${id}`));
      await sleep(3);
    }
  });

  it('newest first; 50 entries by default; limit up to 100', async () => {
    const def = await read('');
    expect(def.entries).toHaveLength(50);
    const all = await read('?limit=100');
    expect(all.entries.length).toBeGreaterThanOrEqual(58);
    expect(all.entries.length).toBeLessThanOrEqual(100);
    const creations = all.entries.filter((e) => e.action === 'exam.created');
    const order = creations.map((e) => created.find((id) => stringsIn(e).includes(id)));
    expect(order).toEqual([...created].reverse());
    const deletedAt = all.entries.findIndex(
      (e) => stringsIn(e).includes(created[0] ?? '') && e.action !== 'exam.created',
    );
    const createdAt = all.entries.findIndex(
      (e) => stringsIn(e).includes(created[0] ?? '') && e.action === 'exam.created',
    );
    expect(deletedAt).toBeGreaterThanOrEqual(0);
    expect(deletedAt).toBeLessThan(createdAt);
  });

  it('limit outside 1..100 is refused or never served beyond 100', async () => {
    for (const q of ['?limit=0', '?limit=101']) {
      const res = await api(info, key(), 'GET', `/activity${q}`);
      if (res.status >= 400) expectError(res, 400, ['validation_error', 'limit_exceeded']);
      else expect(listIn(Obj.parse(res.json), 'activity').length).toBeLessThanOrEqual(100);
    }
  });

  it('next_cursor pages through everything once, without repeats or gaps', async () => {
    const all = (await read('?limit=100')).entries.map((e) => JSON.stringify(e));
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 30; guard++) {
      const page = await read(`?limit=7${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.entries.length).toBeLessThanOrEqual(7);
      seen.push(...page.entries.map((e) => JSON.stringify(e)));
      cursor = page.cursor;
      if (cursor) expect(cursor, 'before is an ISO date cursor').toMatch(ISO_TIMESTAMP);
      if (!cursor || page.entries.length === 0) break;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(all);
  });

  it('action= filters', async () => {
    const only = await read('?action=exam.created&limit=100');
    expect(only.entries).toHaveLength(55);
    expect(only.entries.every((e) => e.action === 'exam.created')).toBe(true);
  });

  it('is per account', async () => {
    const other = await api(info, info.keys.ultra, 'GET', '/activity?limit=100');
    expect(stringsIn(other.json).some((s) => created.includes(s))).toBe(false);
  });
});

describe('notifications', () => {
  const Notification = z.object({ id: z.string().startsWith('ntf_') }).loose();
  const isRead = (n: Record<string, unknown>): boolean => {
    if (typeof n.read === 'boolean') return n.read;
    if ('read_at' in n) return n.read_at !== null;
    if (typeof n.is_read === 'boolean') return n.is_read;
    throw new Error(`no read state in ${JSON.stringify(n)}`);
  };
  const read = async (query = '') => {
    const res = await api(info, pro, 'GET', `/notifications${query}`);
    expectOk(res, 200);
    return z
      .object({ notifications: z.array(Notification), unread_count: z.number() })
      .loose()
      .parse(res.json);
  };

  beforeAll(async () => {
    // The spec does not say what raises a notification: do the ordinary things a clinic does.
    for (let i = 0; i < 3; i++) await readyExam(info, pro, { name: `Aviso ${i}` });
    const t = await api(info, pro, 'POST', '/support/tickets', { subject: 'Aviso', message: 'x' });
    await emu.control('POST', `/tickets/${String(unwrap(t.json, 'ticket').id)}/replies`, { body: 'Respuesta' });
  });

  it('answers {notifications, unread_count}; unread_only returns only unread ones', async () => {
    const all = await read('?limit=100');
    expect(all.notifications.length, 'ordinary activity should raise some notifications').toBeGreaterThanOrEqual(2);
    expect(all.unread_count).toBe(all.notifications.filter((n) => !isRead(n)).length);
    const unread = await read('?unread_only=true&limit=100');
    expect(unread.notifications.every((n) => !isRead(n))).toBe(true);
    expect(unread.notifications).toHaveLength(all.unread_count);
    expect((await read('?limit=1')).notifications).toHaveLength(1);
  });

  it('mark-read marks one and is idempotent', async () => {
    const before = await read();
    const target = before.notifications.find((n) => !isRead(n));
    expect(target).toBeDefined();
    const id = target?.id ?? '';
    expectOk(await api(info, pro, 'POST', `/notifications/${id}/mark-read`));
    const mid = await read();
    expect(mid.unread_count).toBe(before.unread_count - 1);
    expect(isRead(mid.notifications.find((n) => n.id === id) ?? {})).toBe(true);
    expectOk(await api(info, pro, 'POST', `/notifications/${id}/mark-read`));
    expect((await read()).unread_count).toBe(before.unread_count - 1);
    expect((await read('?unread_only=true')).notifications.map((n) => n.id)).not.toContain(id);
  });

  it('mark-all-read answers {marked_count} and leaves nothing unread', async () => {
    const before = await read();
    expect(before.unread_count).toBeGreaterThan(0);
    const res = await api(info, pro, 'POST', '/notifications/mark-all-read');
    expectOk(res);
    expect(res.json.marked_count).toBe(before.unread_count);
    expect((await read()).unread_count).toBe(0);
    expect((await read('?unread_only=true')).notifications).toEqual([]);
    const again = await api(info, pro, 'POST', '/notifications/mark-all-read');
    expect(again.json.marked_count).toBe(0);
  });

  it('mark-read of an unknown id → 404 not_found', async () => {
    expectError(await api(info, pro, 'POST', '/notifications/ntf_unknown00000000/mark-read'), 404, 'not_found');
  });

  it('viewing an exam does not raise a notification', async () => {
    const id = await readyExam(info, pro, { name: 'Visto' });
    const exam = (await api(info, pro, 'GET', `/exams/${id}`)).json;
    const before = (await read('?limit=100')).notifications.map((n) => n.id);
    for (const u of [exam.viewer_url, exam.share_url]) await getBytes(String(u));
    await sleep(200);
    const after = (await read('?limit=100')).notifications.map((n) => n.id);
    expect(after).toEqual(before);
  });
});
