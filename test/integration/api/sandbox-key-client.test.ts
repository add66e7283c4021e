import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '@main/core/api/client';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { clientFor, must, readyExam } from '../../support/harness/api-clients';

type Mail = { mail: { to: string[] }[] };

// API-v1.md §5.5: what a sandbox (cbct_test_) key does differently, seen through the client.
describe('client: sandbox key behaviour against the emulator', () => {
  let emu: EmulatorProcess;
  let live: ApiClient;
  let sandbox: ApiClient;
  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    live = clientFor(emu, 'pro').client;
    sandbox = clientFor(emu, 'sandbox').client;
    // The live side of the same account has data the sandbox must not see.
    await live.referrers.create({ name: 'Referente Real' });
    await live.templates.create({ name: 'Lámina real', pages: [{ slots: [{ x: 0, y: 0, w: 1, h: 1 }] }] });
    await readyExam(live, { name: 'Examen real' });
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('the client knows its key is a sandbox key', () => {
    expect(sandbox.sandbox).toBe(true);
    expect(sandbox.keyKind).toBe('sandbox');
    expect(live.sandbox).toBe(false);
  });

  it('has its own rate bucket of 1000 per hour, apart from the live key', async () => {
    await sandbox.account.me();
    const s1 = sandbox.meter.snapshot();
    expect(s1.limit).toBe(1000);
    for (let i = 0; i < 3; i++) await live.account.me();
    await sandbox.account.me();
    expect(sandbox.meter.snapshot().remaining).toBe(must(s1.remaining) - 1);
    expect(live.meter.snapshot().limit).toBe(1000);
  });

  it('referrers: reads are empty, writes return an rfr_test_ mock and store nothing', async () => {
    expect((await sandbox.referrers.list()).referrers).toEqual([]);
    const mock = await sandbox.referrers.create({ name: 'Dr. Prueba' });
    expect(mock.id).toMatch(/^rfr_test_/);
    expect(mock.name).toBe('Dr. Prueba');
    expect((await sandbox.referrers.list()).referrers).toEqual([]);
    expect((await live.referrers.list()).referrers.map((r) => r.name)).toEqual(['Referente Real']);
  });

  it('templates: only the system defaults, and writes return a tpl_test_ mock', async () => {
    const listed = await sandbox.templates.list();
    expect(listed.templates.length).toBeGreaterThan(0);
    expect(listed.templates.every((t) => t.is_default)).toBe(true);
    const mock = await sandbox.templates.create({ name: 'Prueba', pages: [{ slots: [{ x: 0, y: 0, w: 1, h: 1 }] }] });
    expect(mock.id).toMatch(/^tpl_test_/);
    expect((await sandbox.templates.list()).templates.map((t) => t.id)).toEqual(listed.templates.map((t) => t.id));
  });

  it('support tickets: a tkt_test_ mock in test mode, nothing stored, no e-mail', async () => {
    const before = (await emu.control<Mail>('GET', '/mail')).mail.length;
    const t = await sandbox.support.create({ subject: 'Prueba', message: 'Ticket de prueba', category: 'general' });
    expect(t.id).toMatch(/^tkt_test_/);
    expect(t.test_mode).toBe(true);
    expect((await emu.control<Mail>('GET', '/mail')).mail.length).toBe(before);
    expect((await live.support.list()).tickets.map((x) => x.id)).not.toContain(t.id);
  });

  it('activity and notifications: empty lists, even after sandbox work', async () => {
    await readyExam(sandbox, { name: 'Examen de prueba' });
    const act = await sandbox.activity.list();
    expect(act.activity).toEqual([]);
    const seen: unknown[] = [];
    for await (const a of sandbox.activity.iterate()) seen.push(a);
    expect(seen).toEqual([]);
    const n = await sandbox.notifications.list();
    expect(n.notifications).toEqual([]);
    expect(n.unread_count).toBe(0);
    expect((await live.activity.list()).activity.length).toBeGreaterThan(0);
  });

  it('implant catalog: identical to live', async () => {
    expect(await sandbox.implants.brands()).toEqual(await live.implants.brands());
    const brand = must((await live.implants.brands()).brands[0]).brand;
    expect(await sandbox.implants.byBrand(brand, { limit: 5 })).toEqual(
      await live.implants.byBrand(brand, { limit: 5 }),
    );
  });

  it('share: nothing is sent (sent=false, reason test_mode_no_send)', async () => {
    const { exam } = await readyExam(sandbox);
    expect(exam.test_mode).toBe(true);
    const r = await sandbox.exams.share(exam.id, { to: 'sandbox-share@correo.cl' });
    expect(r.sent).toBe(false);
    expect(r.reason).toBe('test_mode_no_send');
    expect((await emu.control<Mail>('GET', '/mail?to=sandbox-share@correo.cl')).mail).toEqual([]);
  });

  it('consent e-mail: a signing link but no e-mail', async () => {
    const { exam } = await readyExam(sandbox);
    const r = await sandbox.consent.sendEmail(exam.id, { to: 'sandbox-consent@correo.cl' });
    expect(r.sent).toBe(false);
    expect(r.sign_url).toMatch(/^http/);
    expect((await emu.control<Mail>('GET', '/mail?to=sandbox-consent@correo.cl')).mail).toEqual([]);
  });

  it('sandbox exams stay apart from live ones', async () => {
    const liveIds = new Set((await live.exams.list({ limit: 100 })).exams.map((e) => e.id));
    const sandboxExams = (await sandbox.exams.list({ limit: 100 })).exams;
    expect(sandboxExams.length).toBeGreaterThan(0);
    expect(sandboxExams.every((e) => !liveIds.has(e.id) && e.test_mode === true)).toBe(true);
    expect((await live.account.me()).exams.count).toBe(liveIds.size);
  });
});
