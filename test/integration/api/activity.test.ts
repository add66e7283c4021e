import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '@main/core/api/client';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { clientFor, must, readyExam } from '../../support/harness/api-clients';

describe('client: activity log and notifications against the emulator', () => {
  let emu: EmulatorProcess;
  let client: ApiClient;
  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    client = clientFor(emu, 'pro').client;
    for (let i = 0; i < 3; i++) await readyExam(client, { name: `Actividad ${i}` });
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('reads the log newest first and filters by action', async () => {
    const page = await client.activity.list({ limit: 100 });
    expect(page.activity.length).toBeGreaterThanOrEqual(6);
    const created = await client.activity.list({ action: 'exam.created' });
    expect(created.activity).toHaveLength(3);
    expect(created.activity.every((a) => a.action === 'exam.created')).toBe(true);
    const times = page.activity.map((a) => a.created_at ?? '');
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('iterates the whole log through next_cursor without gaps or repeats', async () => {
    const all = (await client.activity.list({ limit: 100 })).activity.map((a) => a.id);
    const first = await client.activity.list({ limit: 2 });
    expect(first.next_cursor).toBeTruthy();
    const walked: (string | null | undefined)[] = [];
    for await (const a of client.activity.iterate({ pageSize: 2 })) walked.push(a.id);
    expect(walked).toEqual(all);
  });

  it('lists notifications, marks one read (twice: idempotent) and then all', async () => {
    const before = await client.notifications.list();
    expect(before.unread_count).toBeGreaterThanOrEqual(3);
    const first = must(before.notifications[0]);
    expect(first.id).toMatch(/^ntf_/);
    const marked = await client.notifications.markRead(first.id);
    expect(marked.read).toBe(true);
    expect((await client.notifications.markRead(first.id)).read).toBe(true);
    const unread = await client.notifications.list({ unread_only: true });
    expect(unread.notifications.every((n) => !n.read)).toBe(true);
    expect(unread.unread_count).toBe(before.unread_count - 1);
    const all = await client.notifications.markAllRead();
    expect(all.marked_count).toBe(before.unread_count - 1);
    expect((await client.notifications.list()).unread_count).toBe(0);
    expect((await client.notifications.list({ limit: 1 })).notifications).toHaveLength(1);
    await expect(client.notifications.markRead('ntf_unknown')).rejects.toMatchObject({ code: 'not_found' });
  });
});
