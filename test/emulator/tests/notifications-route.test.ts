import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';

type Notification = {
  id: string;
  type: string;
  title: string;
  body: string;
  exam_id: string | null;
  read: boolean;
  created_at: string;
  read_at: string | null;
};
type List = { notifications: Notification[]; unread_count: number };
type Detail = { field: string; message: string };

describe('emulator: notifications (§2.13, §4.10, §5.5)', () => {
  let emu: EmulatorProcess;
  const call = (method: string, path: string, body?: unknown, key?: string) =>
    api(emu.info, key ?? emu.info.keys.pro, method, path, body);
  const list = async (query = '', key?: string): Promise<List> =>
    (await call('GET', `/notifications${query}`, undefined, key)).json as unknown as List;

  /** Support replies are the notification source this suite controls: one reply, one notification. */
  async function reply(key: string, n: number): Promise<void> {
    const t = await call('POST', '/support/tickets', { subject: 'Consulta', message: 'Texto' }, key);
    for (let i = 0; i < n; i++)
      await emu.control('POST', `/tickets/${t.json['id'] as string}/replies`, { body: `Respuesta ${i}` });
  }

  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    await reply(emu.info.keys.pro, 35);
    await reply(emu.info.keys.clinica, 1);
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('lists {notifications, unread_count}: newest first, default limit 30, ntf_ ids, full fields', async () => {
    const r = await call('GET', '/notifications');
    expect(r.status).toBe(200);
    const l = r.json as unknown as List;
    expect(l.notifications).toHaveLength(30);
    expect(l.unread_count).toBe(35);
    expect(l.notifications[0]?.body).toBe('Respuesta 34');
    expect(l.notifications[29]?.body).toBe('Respuesta 5');
    const n = l.notifications[0] as Notification;
    expect(n.id).toMatch(/^ntf_/);
    expect(n).toMatchObject({ type: 'support_reply', read: false, read_at: null, exam_id: null });
    expect(n.title.length).toBeGreaterThan(0);
    expect(Object.keys(n).sort()).toEqual(['body', 'created_at', 'exam_id', 'id', 'read', 'read_at', 'title', 'type']);
    expect((await list('?limit=100')).notifications).toHaveLength(35);
    expect((await list('?limit=2')).notifications.map((x) => x.body)).toEqual(['Respuesta 34', 'Respuesta 33']);
  });

  it('rejects limit outside 1..100 and a non-boolean unread_only with 400', async () => {
    for (const [q, field] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?unread_only=maybe', 'unread_only'],
    ] as const) {
      const r = await call('GET', `/notifications${q}`);
      expect(r.status, q).toBe(400);
      expect((r.json.error?.['details'] as Detail[])[0]?.field).toBe(field);
    }
  });

  it('mark-read marks one (read_at set), is idempotent, and unread_only / unread_count follow', async () => {
    const target = (await list('?limit=1')).notifications[0] as Notification;
    const r = await call('POST', `/notifications/${target.id}/mark-read`);
    expect(r.status).toBe(200);
    const marked = r.json as unknown as Notification;
    expect(marked).toMatchObject({ id: target.id, read: true, type: target.type, body: target.body });
    expect(Date.parse(marked.read_at ?? '')).not.toBeNaN();
    await new Promise((res) => setTimeout(res, 5));
    const again = await call('POST', `/notifications/${target.id}/mark-read`);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(r.json);
    const after = await list('?unread_only=true&limit=100');
    expect(after.unread_count).toBe(34);
    expect(after.notifications).toHaveLength(34);
    expect(after.notifications.some((x) => x.id === target.id)).toBe(false);
    expect((await list('?unread_only=false&limit=100')).notifications).toHaveLength(35);
  });

  it("mark-read of an unknown or another account's notification answers 404", async () => {
    const unknown = await call('POST', '/notifications/ntf_nope/mark-read');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error?.code).toBe('not_found');
    const theirs = (await list('', emu.info.keys.clinica)).notifications[0] as Notification;
    expect((await call('POST', `/notifications/${theirs.id}/mark-read`)).status).toBe(404);
    expect((await list('', emu.info.keys.clinica)).unread_count).toBe(1);
  });

  it('needs account:write to mark (readonly key: reads, but 403 on mark-read and mark-all-read)', async () => {
    const ro = emu.info.keys.readonly;
    expect((await call('GET', '/notifications', undefined, ro)).status).toBe(200);
    const one = (await list()).notifications[1] as Notification;
    const r = await call('POST', `/notifications/${one.id}/mark-read`, undefined, ro);
    expect(r.status).toBe(403);
    expect(r.json.error?.['required_scope']).toBe('account:write');
    expect((await call('POST', '/notifications/mark-all-read', undefined, ro)).status).toBe(403);
  });

  describe('sandbox key', () => {
    it('sees an empty list, mark-all-read answers {marked_count: 0}, and live notifications stay unread', async () => {
      const sb = emu.info.keys.sandbox;
      expect(await list('', sb)).toEqual({ notifications: [], unread_count: 0 });
      expect((await call('POST', '/notifications/mark-all-read', undefined, sb)).json).toEqual({ marked_count: 0 });
      const live = (await list()).notifications[1] as Notification;
      expect((await call('POST', `/notifications/${live.id}/mark-read`, undefined, sb)).status).toBe(404);
      expect((await list()).unread_count).toBe(34);
    });
  });

  it('mark-all-read marks every unread one and answers {marked_count}; again → 0', async () => {
    const r = await call('POST', '/notifications/mark-all-read');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ marked_count: 34 });
    const l = await list('?limit=100');
    expect(l.unread_count).toBe(0);
    expect(l.notifications.every((n) => n.read && n.read_at !== null)).toBe(true);
    expect((await call('POST', '/notifications/mark-all-read')).json).toEqual({ marked_count: 0 });
    expect((await list('?unread_only=1')).notifications).toEqual([]);
    expect((await list('', emu.info.keys.clinica)).unread_count).toBe(1);
  });
});
