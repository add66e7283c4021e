// Sandbox keys, each bullet of API-v1.md §5.5 except the rate bucket (rate-limits.test.ts covers that).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { api, EmulatorProcess, type EmulatorInfo } from '../../support/emulator/emulator';
import { expectOk, listIn, Obj, readyExam, stringsIn, unwrap } from '../../support/emulator/conformance-client';

let emu: EmulatorProcess;
let info: EmulatorInfo;
let pro: string;
let sandbox: string;
let liveReferrer: string;
let liveTemplate: string;

beforeAll(async () => {
  emu = await EmulatorProcess.start();
  info = emu.info;
  pro = info.keys.pro;
  sandbox = info.keys.sandbox;
  // Live data on the same (pro) account, which the sandbox key must not see or touch.
  const r = await api(info, pro, 'POST', '/referrers', { name: 'Dra. Viva', email: 'viva@example.com' });
  expectOk(r);
  liveReferrer = String(unwrap(r.json, 'referrer').id);
  const t = await api(info, pro, 'POST', '/templates', {
    name: 'Plantilla viva',
    pages: [{ slots: [{ x: 0, y: 0, w: 1, h: 1 }] }],
  });
  expectOk(t);
  liveTemplate = String(unwrap(t.json, 'template').id);
  const tk = await api(info, pro, 'POST', '/support/tickets', { subject: 'Ticket vivo', message: 'x' });
  expectOk(tk);
  await emu.control('POST', `/tickets/${String(unwrap(tk.json, 'ticket').id)}/replies`, { body: 'Respuesta viva' });
  await readyExam(info, pro, { name: 'Examen vivo' });
});
afterAll(async () => {
  await emu.dispose();
});

const mailCount = async () => listIn(await emu.control('GET', '/mail'), 'mail').length;

describe('sandbox referrers: reads are empty, writes are mocks that store nothing', () => {
  it('GET /referrers returns an empty list even though the account has referrers', async () => {
    const res = await api(info, sandbox, 'GET', '/referrers');
    expectOk(res, 200);
    expect(res.json.referrers).toEqual([]);
  });

  it('POST returns a mock with an rfr_test_ id and stores nothing', async () => {
    const res = await api(info, sandbox, 'POST', '/referrers', { name: 'Dr. Prueba' });
    expectOk(res);
    const id = String(unwrap(res.json, 'referrer').id);
    expect(id.startsWith('rfr_test_')).toBe(true);
    expect((await api(info, sandbox, 'GET', '/referrers')).json.referrers).toEqual([]);
    expect(stringsIn((await api(info, pro, 'GET', '/referrers')).json)).not.toContain(id);
    expect(stringsIn((await api(info, pro, 'GET', '/referrers')).json)).not.toContain('Dr. Prueba');
  });

  it('PATCH and DELETE answer with mocks and leave live referrers untouched', async () => {
    expectOk(await api(info, sandbox, 'PATCH', `/referrers/${liveReferrer}`, { name: 'Cambiada' }));
    expectOk(await api(info, sandbox, 'DELETE', `/referrers/${liveReferrer}`));
    const live = await api(info, pro, 'GET', `/referrers/${liveReferrer}`);
    expectOk(live, 200);
    expect(unwrap(live.json, 'referrer').name).toBe('Dra. Viva');
  });
});

describe('sandbox templates: only system defaults, writes are mocks', () => {
  it('GET returns only the system defaults', async () => {
    const res = await api(info, sandbox, 'GET', '/templates');
    expectOk(res, 200);
    const list = z
      .array(z.object({ id: z.string(), is_default: z.boolean() }).loose())
      .parse(listIn(res.json, 'templates'));
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((t) => t.is_default)).toBe(true);
    expect(list.map((t) => t.id)).not.toContain(liveTemplate);
  });

  it('POST returns a mock with a tpl_test_ id and stores nothing', async () => {
    const res = await api(info, sandbox, 'POST', '/templates', {
      name: 'Mock',
      pages: [{ slots: [{ x: 0, y: 0, w: 0.5, h: 0.5 }] }],
    });
    expectOk(res);
    const id = String(unwrap(res.json, 'template').id);
    expect(id.startsWith('tpl_test_')).toBe(true);
    expect(stringsIn((await api(info, pro, 'GET', '/templates')).json)).not.toContain(id);
    expect(stringsIn((await api(info, sandbox, 'GET', '/templates')).json)).not.toContain(id);
  });

  it('PATCH and DELETE of a live template do nothing', async () => {
    await api(info, sandbox, 'PATCH', `/templates/${liveTemplate}`, { name: 'Cambiada' });
    await api(info, sandbox, 'DELETE', `/templates/${liveTemplate}`);
    const live = await api(info, pro, 'GET', `/templates/${liveTemplate}`);
    expectOk(live, 200);
    expect(unwrap(live.json, 'template').name).toBe('Plantilla viva');
  });
});

describe('sandbox support tickets', () => {
  it('nothing stored, no e-mail, a tkt_test_ mock with test_mode=true', async () => {
    const before = await mailCount();
    const res = await api(info, sandbox, 'POST', '/support/tickets', {
      subject: 'Prueba',
      message: 'x',
      category: 'bug',
    });
    expectOk(res);
    const t = unwrap(res.json, 'ticket');
    expect(String(t.id).startsWith('tkt_test_')).toBe(true);
    expect(res.json.test_mode ?? t.test_mode).toBe(true);
    expect(await mailCount()).toBe(before);
    expect(stringsIn((await api(info, pro, 'GET', '/support/tickets')).json)).not.toContain(String(t.id));
  });
});

describe('sandbox activity and notifications', () => {
  it('activity is an empty list although the account has activity', async () => {
    const live = await api(info, pro, 'GET', '/activity');
    expect(listIn(Obj.parse(live.json), 'activity').length).toBeGreaterThan(0);
    const res = await api(info, sandbox, 'GET', '/activity');
    expectOk(res, 200);
    expect(listIn(Obj.parse(res.json), 'activity')).toEqual([]);
  });

  it('notifications are an empty list', async () => {
    const res = await api(info, sandbox, 'GET', '/notifications');
    expectOk(res, 200);
    expect(res.json.notifications).toEqual([]);
    expect(res.json.unread_count ?? 0).toBe(0);
  });
});

describe('sandbox implant catalog', () => {
  it('answers exactly like live', async () => {
    const brands = listIn((await api(info, pro, 'GET', '/implants')).json, 'brands').map((b) => Obj.parse(b));
    const brand = String(brands[0]?.brand);
    const entries = listIn((await api(info, pro, 'GET', `/implants?brand=${encodeURIComponent(brand)}`)).json).map(
      (e) => Obj.parse(e),
    );
    const e = entries[0] ?? {};
    for (const q of [
      '',
      `?brand=${encodeURIComponent(brand)}`,
      `?search=${encodeURIComponent(brand.slice(0, 3))}`,
      `?length=${String(e.length)}&diameter=${String(e.diameter)}`,
      '?limit=3&offset=2',
    ]) {
      const live = await api(info, pro, 'GET', `/implants${q}`);
      const test = await api(info, sandbox, 'GET', `/implants${q}`);
      expectOk(test, 200);
      expect(test.json, q).toEqual(live.json);
    }
  });
});

describe('sandbox e-mail', () => {
  it('share sends nothing (sent=false, reason=test_mode_no_send)', async () => {
    const id = await readyExam(info, sandbox, { name: 'Sandbox share' });
    const before = await mailCount();
    const res = await api(info, sandbox, 'POST', `/exams/${id}/share`, { to: 'nadie@example.com' });
    expectOk(res);
    expect(res.json).toMatchObject({ sent: false, reason: 'test_mode_no_send' });
    expect(await mailCount()).toBe(before);
  });

  it('consent e-mail sends nothing but still gives a sign_url', async () => {
    const id = await readyExam(info, sandbox, { name: 'Sandbox consent' });
    expectOk(await api(info, sandbox, 'POST', `/exams/${id}/consent`, { country_code: 'CL', locale: 'es' }));
    const before = await mailCount();
    const res = await api(info, sandbox, 'POST', `/exams/${id}/consent/email`, {
      to: 'nadie@example.com',
      patient_name: 'Nadie',
    });
    expectOk(res);
    expect(typeof res.json.sign_url).toBe('string');
    expect(await mailCount()).toBe(before);
  });
});
