import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';

type Named = { id: string; name?: string; subject?: string };

/** Starts an emulator on `dataDir` and measures spawn → first stdout line. */
async function timedStart(dataDir: string): Promise<{ emu: EmulatorProcess; ms: number }> {
  const t0 = performance.now();
  const emu = await EmulatorProcess.start({ dataDir });
  return { emu, ms: performance.now() - t0 };
}

describe('emulator: persistence in --data (restart, kill -9, start-up time)', () => {
  let dataDir: string;
  let emu: EmulatorProcess;
  const call = (method: string, path: string, body?: unknown) => api(emu.info, emu.info.keys.pro, method, path, body);
  const startups: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sb-emu-persist-'));
    const { emu: e, ms } = await timedStart(dataDir);
    emu = e;
    startups.push(`fresh data folder: ${ms.toFixed(0)} ms`);
  });
  afterAll(async () => {
    await emu.stop();
    rmSync(dataDir, { recursive: true, force: true });
    console.log(`emulator start-up (spawn → first line): ${startups.join('; ')}`);
  });

  /** What the pro account looks like through the API, for before/after comparisons. */
  async function snapshot(): Promise<Record<string, unknown>> {
    const tickets = (await call('GET', '/support/tickets?limit=100')).json['tickets'] as Named[];
    return {
      referrers: (await call('GET', '/referrers')).json,
      templates: (await call('GET', '/templates')).json,
      tickets,
      ticketDetails: await Promise.all(tickets.map(async (t) => (await call('GET', `/support/tickets/${t.id}`)).json)),
      activity: (await call('GET', '/activity?limit=100')).json,
      notifications: (await call('GET', '/notifications?limit=100')).json,
      keys: emu.info.keys,
    };
  }

  it('a clean restart on the same --data keeps referrers, templates, tickets, activity, notifications and keys', async () => {
    const ref = await call('POST', '/referrers', { name: 'Dra. Persistente', email: 'p@clinica.cl' });
    expect(ref.status).toBe(201);
    expect((await call('PATCH', `/referrers/${ref.json['id'] as string}`, { specialty: 'Radiología' })).status).toBe(
      200,
    );
    expect(
      (
        await call('POST', '/templates', {
          name: 'Lámina guardada',
          pages: [{ slots: [{ x: 0, y: 0, w: 1, h: 1, label: 'Todo' }] }],
        })
      ).status,
    ).toBe(201);
    const t1 = await call('POST', '/support/tickets', { subject: 'Primero', message: 'Uno' });
    const t2 = await call('POST', '/support/tickets', { subject: 'Segundo', message: 'Dos', category: 'bug' });
    await emu.control('POST', `/tickets/${t1.json['id'] as string}/replies`, { body: 'Respondido' });
    await emu.control('POST', `/tickets/${t2.json['id'] as string}/replies`, { body: 'También' });
    const ntf = ((await call('GET', '/notifications')).json['notifications'] as Named[])[0] as Named;
    expect((await call('POST', `/notifications/${ntf.id}/mark-read`)).status).toBe(200);
    const before = await snapshot();
    expect((before['activity'] as { activity: unknown[] }).activity.length).toBeGreaterThanOrEqual(6);

    emu = await emu.restart();
    expect(await snapshot()).toEqual(before);
    const mail = await emu.control<{ mail: { kind: string }[] }>('GET', '/mail');
    expect(mail.mail.filter((m) => m.kind === 'support_ticket')).toHaveLength(2);
  });

  it('kill -9 right after acknowledged writes loses none of them', async () => {
    const created = await call('POST', '/referrers', { name: 'Dr. Justo Antes' });
    expect(created.status).toBe(201);
    const before = await snapshot();
    await emu.stop('SIGKILL');
    const { emu: e, ms } = await timedStart(dataDir);
    emu = e;
    startups.push(`after kill -9: ${ms.toFixed(0)} ms`);
    expect(await snapshot()).toEqual(before);
  });

  it('kill -9 in the middle of a burst of concurrent writes leaves a loadable, consistent prefix (3 rounds)', async () => {
    for (let round = 0; round < 3; round++) {
      const workers = 6;
      const acked: Set<string>[] = Array.from({ length: workers }, () => new Set());
      const sentNames: string[][] = Array.from({ length: workers }, () => []);
      let stop = false;
      const burst = Promise.all(
        Array.from({ length: workers }, async (_, w) => {
          for (let i = 0; !stop; i++) {
            const name = `Ráfaga ${round}-${w}-${String(i).padStart(4, '0')}`;
            sentNames[w]?.push(name);
            try {
              // Mostly referrers (an unbounded list); every fourth write a ticket (lists stop at 100).
              const r =
                i % 4 !== 3
                  ? await call('POST', '/referrers', { name })
                  : await call('POST', '/support/tickets', { subject: name, message: 'Carga' });
              if (r.status === 201) acked[w]?.add(name);
              else throw new Error(`unexpected ${r.status}`);
            } catch {
              return; // the server died under us
            }
          }
        }),
      );
      await new Promise((r) => setTimeout(r, 150 + Math.random() * 450));
      await emu.stop('SIGKILL');
      stop = true;
      await burst;
      expect(acked.reduce((s, a) => s + a.size, 0)).toBeGreaterThan(0);

      // The state file is whole JSON (the atomic rename left the old or the new one, never a torn one).
      expect(() => JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8')) as unknown).not.toThrow();
      const { emu: e, ms } = await timedStart(dataDir);
      emu = e;
      startups.push(`after kill -9 mid-burst (round ${round + 1}): ${ms.toFixed(0)} ms`);
      expect(existsSync(join(dataDir, 'state.json.tmp'))).toBe(false);

      const refs = await call('GET', '/referrers');
      expect(refs.status).toBe(200);
      const tickets = await call('GET', '/support/tickets?limit=100');
      expect(tickets.status).toBe(200);
      const storedRefs = (refs.json['referrers'] as Named[]).filter((r) => r.name?.startsWith(`Ráfaga ${round}-`));
      const storedTickets = (tickets.json['tickets'] as Named[]).filter((t) =>
        t.subject?.startsWith(`Ráfaga ${round}-`),
      );
      // The ticket list answers at most 100; this round's tickets (the newest) must all have fitted.
      expect(storedTickets.length).toBeLessThan(100);
      const stored = new Set([...storedRefs.map((r) => r.name), ...storedTickets.map((t) => t.subject)]);
      for (let w = 0; w < workers; w++) {
        const sent = sentNames[w] ?? [];
        // Every acknowledged write survived, and what survived is a prefix of what the worker sent
        // (at most the one request in flight at the kill beyond the acknowledged ones).
        for (const name of acked[w] ?? []) expect(stored.has(name), name).toBe(true);
        const kept = sent.filter((n) => stored.has(n)).length;
        expect(sent.slice(0, kept).every((n) => stored.has(n))).toBe(true);
        expect(kept - (acked[w]?.size ?? 0)).toBeGreaterThanOrEqual(0);
        expect(kept - (acked[w]?.size ?? 0)).toBeLessThanOrEqual(1);
      }
      // One atomic write per request: each record came with its activity entry and (tickets) its two e-mails.
      const actCreated = await allActivity('referrer.created');
      expect(storedRefs.every((r) => actCreated.has(r.id))).toBe(true);
      const actTickets = await allActivity('ticket.created');
      expect(storedTickets.every((t) => actTickets.has(t.id))).toBe(true);
      const mail = (await emu.control<{ mail: { kind: string; subject: string }[] }>('GET', '/mail')).mail;
      for (const t of storedTickets)
        expect(mail.filter((m) => m.kind === 'support_ticket' && m.subject.includes(t.id))).toHaveLength(1);
    }
  });

  /** Resource ids of every activity entry with `action`, paging through the log. */
  async function allActivity(action: string): Promise<Set<string>> {
    const ids = new Set<string>();
    let cursor: string | null = null;
    do {
      const q: string = `/activity?limit=100&action=${action}${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`;
      const page = (await call('GET', q)).json as { activity: { resource_id: string }[]; next_cursor: string | null };
      for (const a of page.activity) ids.add(a.resource_id);
      cursor = page.next_cursor;
    } while (cursor);
    return ids;
  }
});
