import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';

type Entry = {
  id: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  data: Record<string, unknown>;
  created_at: string;
};
type Page = { activity: Entry[]; next_cursor: string | null; has_more: boolean };
type Detail = { field: string; message: string };

describe('emulator: activity log (§2.13, §4.10, §5.5)', () => {
  let emu: EmulatorProcess;
  const call = (method: string, path: string, body?: unknown, key?: string) =>
    api(emu.info, key ?? emu.info.keys.pro, method, path, body);
  const page = async (query: string, key?: string): Promise<Page> =>
    (await call('GET', `/activity${query}`, undefined, key)).json as unknown as Page;
  const referrerIds: string[] = [];

  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    // A burst of changes: 60 creations and 12 updates, many within the same millisecond.
    const created = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call('POST', '/referrers', { name: `Dr. Registro ${String(i).padStart(2, '0')}` }),
      ),
    );
    for (const r of created) referrerIds.push(r.json['id'] as string);
    await Promise.all(
      referrerIds.slice(0, 12).map((id) => call('PATCH', `/referrers/${id}`, { specialty: 'Implantología' })),
    );
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('records changes as {id, action, resource_type, resource_id, data, created_at}, newest first, default limit 50', async () => {
    const r = await call('GET', '/activity');
    expect(r.status).toBe(200);
    const p = r.json as unknown as Page;
    expect(p.activity).toHaveLength(50);
    expect(p.has_more).toBe(true);
    const first = p.activity[0] as Entry;
    expect(Object.keys(first).sort()).toEqual(['action', 'created_at', 'data', 'id', 'resource_id', 'resource_type']);
    expect(first.action).toBe('referrer.updated');
    expect(first.resource_type).toBe('referrer');
    expect(referrerIds).toContain(first.resource_id);
    const times = p.activity.map((e) => Date.parse(e.created_at));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThan(times[i - 1] as number);
  });

  it('pages with before=next_cursor without gaps or repeats; the last page has has_more false and next_cursor null', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    for (;;) {
      const p: Page = await page(`?limit=7${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`);
      pages++;
      seen.push(...p.activity.map((e) => e.id));
      if (!p.has_more) {
        expect(p.next_cursor).toBeNull();
        break;
      }
      expect(p.activity).toHaveLength(7);
      expect(p.next_cursor).toBe(p.activity[6]?.created_at);
      cursor = p.next_cursor;
    }
    expect(seen).toHaveLength(72);
    expect(new Set(seen).size).toBe(72);
    expect(pages).toBe(Math.ceil(72 / 7));
    const whole = await page('?limit=100');
    expect(whole.activity.map((e) => e.id)).toEqual(seen);
    expect(whole.has_more).toBe(false);
    expect(whole.next_cursor).toBeNull();
  });

  it('filters by action', async () => {
    const updated = await page('?action=referrer.updated&limit=100');
    expect(updated.activity).toHaveLength(12);
    expect(updated.activity.every((e) => e.action === 'referrer.updated')).toBe(true);
    expect(updated.activity.map((e) => e.resource_id).sort()).toEqual(referrerIds.slice(0, 12).sort());
    const created = await page('?action=referrer.created&limit=100');
    expect(created.activity).toHaveLength(60);
    const none = await page('?action=exam.created');
    expect(none).toEqual({ activity: [], next_cursor: null, has_more: false });
  });

  it('before accepts ISO dates and date-times and cuts strictly before that instant', async () => {
    expect((await page('?before=2000-01-01')).activity).toEqual([]);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    expect((await page(`?before=${encodeURIComponent(future)}&limit=100`)).activity).toHaveLength(72);
    const all = (await page('?limit=100')).activity;
    const pivot = all[10] as Entry;
    const after = await page(`?before=${encodeURIComponent(pivot.created_at)}&limit=100`);
    expect(after.activity[0]?.id).toBe(all[11]?.id);
    expect(after.activity).toHaveLength(all.length - 11);
    const offset = pivot.created_at.replace('Z', '+00:00');
    expect((await page(`?before=${encodeURIComponent(offset)}&limit=100`)).activity).toHaveLength(all.length - 11);
  });

  it('rejects an invalid before cursor or limit with 400 validation_error', async () => {
    for (const [q, field] of [
      ['?before=yesterday', 'before'],
      ['?before=2024-13-45', 'before'],
      ['?before=1700000000', 'before'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=2.5', 'limit'],
    ] as const) {
      const r = await call('GET', `/activity${q}`);
      expect(r.status, q).toBe(400);
      expect(r.json.error?.code).toBe('validation_error');
      expect((r.json.error?.['details'] as Detail[])[0]?.field).toBe(field);
    }
    expect((await page('?limit=1')).activity).toHaveLength(1);
    expect((await page('?limit=100')).activity).toHaveLength(72);
  });

  it('is per account and empty for sandbox keys', async () => {
    expect(await page('', emu.info.keys.clinica)).toEqual({ activity: [], next_cursor: null, has_more: false });
    expect(await page('', emu.info.keys.sandbox)).toEqual({ activity: [], next_cursor: null, has_more: false });
    expect((await call('GET', '/activity?before=nonsense', undefined, emu.info.keys.sandbox)).status).toBe(400);
  });

  it('needs account:read: the readonly key (which holds it) may read; the route is declared with that scope', async () => {
    expect((await call('GET', '/activity?limit=1', undefined, emu.info.keys.readonly)).status).toBe(200);
    const routes = (
      await emu.control<{ api: { method: string; path: string; scope: string | null }[] }>('GET', '/routes')
    ).api;
    expect(routes.find((r) => r.method === 'GET' && r.path === '/activity')?.scope).toBe('account:read');
    expect(routes.find((r) => r.method === 'GET' && r.path === '/notifications')?.scope).toBe('account:read');
    expect(routes.find((r) => r.method === 'POST' && r.path === '/notifications/mark-all-read')?.scope).toBe(
      'account:write',
    );
    expect(routes.find((r) => r.method === 'POST' && r.path === '/notifications/:id/mark-read')?.scope).toBe(
      'account:write',
    );
  });
});
