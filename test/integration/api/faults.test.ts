import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '@main/core/api/client';
import { ApiError } from '@main/core/api/http/api-errors';
import { apiErrorText } from '@main/core/cli/words/error-words';
import type { TransportEvent } from '@main/core/api/http/http';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { attempts, clientFor } from '../../support/harness/api-clients';

type Armed = { armed: { target: string; mode: string; count: number; match?: string }[] };

describe('client: transient faults injected by the emulator', () => {
  let emu: EmulatorProcess;
  beforeAll(async () => {
    emu = await EmulatorProcess.start();
  });
  afterAll(async () => {
    await emu.dispose();
  });
  afterEach(async () => {
    await emu.control('DELETE', '/faults');
  });

  const arm = (mode: 'error500' | 'reset' | 'stall', count: number, match?: string) =>
    emu.control('POST', '/faults', { target: 'api', mode, count, ...(match ? { match } : {}) });
  const armed = async () => (await emu.control<Armed>('GET', '/faults')).armed;

  it('retries a read through two 500s and succeeds on the third attempt', async () => {
    await arm('error500', 2, 'GET /api/v1/me');
    const { client, events } = clientFor(emu, 'pro');
    const me = await client.account.me();
    expect(me.plan).toBe('pro');
    expect(attempts(events)).toBe(3);
    expect(events.filter((e) => e.type === 'retry').map((e) => e.type === 'retry' && e.code)).toEqual([
      'server_error',
      'server_error',
    ]);
    expect(await armed()).toEqual([]);
  });

  it('gives up after 4 attempts with ServerError, leaving the remaining faults unconsumed', async () => {
    await arm('error500', 6, 'GET /api/v1/me');
    const { client, events } = clientFor(emu, 'pro');
    const err = await client.account.me().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'server_error' });
    expect((err as ApiError).code).toBe('server_error');
    expect(apiErrorText(err as ApiError)).toBe('The service had a problem. Try again in a few minutes.');
    expect(attempts(events)).toBe(4);
    expect((await armed())[0]?.count).toBe(2);
  });

  it('retries a read after the connection is reset', async () => {
    await arm('reset', 1, 'GET /api/v1/me');
    const { client, events } = clientFor(emu, 'pro');
    expect((await client.account.me()).plan).toBe('pro');
    expect(attempts(events)).toBe(2);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ code: 'network_error' });
  });

  it('gives a stalled read up at its time-out and retries it', async () => {
    await arm('stall', 1, 'GET /api/v1/me');
    const { client, events } = clientFor(emu, 'pro', { timeouts: { read: 400 } });
    const t = Date.now();
    expect((await client.account.me()).plan).toBe('pro');
    expect(Date.now() - t).toBeGreaterThanOrEqual(390);
    expect(attempts(events)).toBe(2);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ code: 'timeout' });
  });

  it('surfaces a stall as TimeoutError once every attempt timed out', async () => {
    await arm('stall', 2, 'GET /api/v1/me');
    const { client, events } = clientFor(emu, 'pro', {
      timeouts: { read: 200 },
      retry: { maxAttempts: 2, baseMs: 5, capMs: 10 },
    });
    const err = await client.account.me().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'timeout' });
    expect((err as ApiError).code).toBe('timeout');
    expect(attempts(events)).toBe(2);
  });

  it('never repeats creating an exam after a 500: one attempt, the error surfaces', async () => {
    await arm('error500', 2, 'POST /api/v1/exams');
    const { client, events } = clientFor(emu, 'pro');
    const err = await client.exams.create({ name: 'x', files: [{ name: 'a.dcm', size: 1 }] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'server_error' });
    expect(attempts(events)).toBe(1);
    expect((await armed())[0]?.count).toBe(1);
  });

  it('never repeats creating an exam after a reset, and says it may have reached the service', async () => {
    await arm('reset', 1, 'POST /api/v1/exams');
    const { client, events } = clientFor(emu, 'pro');
    const err = await client.exams.create({ name: 'x', files: [{ name: 'a.dcm', size: 1 }] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'network_error' });
    expect((err as ApiError).mayHaveReachedService).toBe(true);
    expect(apiErrorText(err as ApiError)).toMatch(
      /^The connection to 127\.0\.0\.1:\d+ was refused or timed out\. Check the internet connection;/,
    );
    expect(attempts(events)).toBe(1);
  });

  it('never repeats creating an exam after a stall', async () => {
    await arm('stall', 1, 'POST /api/v1/exams');
    const { client, events } = clientFor(emu, 'pro', { timeouts: { write: 300 } });
    const err = await client.exams.create({ name: 'x', files: [{ name: 'a.dcm', size: 1 }] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'timeout' });
    expect(attempts(events)).toBe(1);
  });

  it('waits a jittered, growing backoff between attempts', async () => {
    await arm('error500', 3, 'GET /api/v1/me');
    const slept: number[] = [];
    const { client, events } = clientFor(emu, 'pro', {
      retry: { baseMs: 100, capMs: 250 },
      random: () => 0.5,
      sleep: async (ms) => {
        slept.push(ms);
      },
    });
    await client.account.me();
    expect(slept).toEqual([50, 100, 125]);
    expect(events.filter((e) => e.type === 'retry').map((e) => e.type === 'retry' && e.delayMs)).toEqual([
      50, 100, 125,
    ]);
  });

  it('stops retrying at once when the caller cancels during the backoff', async () => {
    await arm('error500', 4, 'GET /api/v1/me');
    const { client, events } = clientFor(emu, 'pro', { retry: { baseMs: 5000, capMs: 5000 }, random: () => 0.99 });
    const c = new AbortController();
    setTimeout(() => c.abort(), 200);
    const t = Date.now();
    await expect(client.account.me({ signal: c.signal })).rejects.toMatchObject({ code: 'aborted' });
    expect(Date.now() - t).toBeLessThan(2000);
    expect(attempts(events)).toBe(1);
  });

  it('reports a refused connection as a network failure that never reached the service', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const { client, events } = clientFor(emu, 'pro', { baseUrl: `http://127.0.0.1:${port}/api/v1` });
    const err = await client.account.me().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'network_error' });
    expect((err as ApiError).networkCode).toBe('ECONNREFUSED');
    expect((err as ApiError).mayHaveReachedService).toBe(false);
    expect(attempts(events)).toBe(4);
  });

  // The retry policy of every call, proved on the wire: one injected 500 on the call's own path.
  // Safe calls are sent again (and so do not end in ServerError); the others are sent once.
  const idempotent: [string, (c: ApiClient) => Promise<unknown>, string][] = [
    ['exams.list', (c) => c.exams.list(), 'GET /api/v1/exams'],
    ['exams.get', (c) => c.exams.get('exm_x'), 'GET /api/v1/exams/exm_x'],
    ['exams.confirm', (c) => c.exams.confirm('exm_x'), 'POST /api/v1/exams/exm_x/confirm'],
    ['exams.processZip', (c) => c.exams.processZip('exm_x'), 'POST /api/v1/exams/exm_x/process-zip'],
    ['exams.remove', (c) => c.exams.remove('exm_x'), 'DELETE /api/v1/exams/exm_x'],
    ['exams.update', (c) => c.exams.update('exm_x', { name: 'y' }), 'PATCH /api/v1/exams/exm_x'],
    ['exams.confirmExtra', (c) => c.exams.confirmExtra('exm_x', 1), 'POST /api/v1/exams/exm_x/extras/1/confirm'],
    ['exams.revokeEmbed', (c) => c.exams.revokeEmbed('exm_x'), 'DELETE /api/v1/exams/exm_x/embed'],
    ['exams.thumbnail', (c) => c.exams.thumbnail('exm_x'), 'GET /api/v1/exams/exm_x/thumbnail'],
    ['consent.pdf', (c) => c.consent.pdf('exm_x', 'blank'), 'GET /api/v1/exams/exm_x/consent/pdf'],
    ['reports.remove', (c) => c.reports.remove('exm_x'), 'DELETE /api/v1/exams/exm_x/report'],
    ['webhooks.update', (c) => c.webhooks.update('wh_x', { enabled: false }), 'PATCH /api/v1/webhooks/wh_x'],
    ['webhooks.remove', (c) => c.webhooks.remove('wh_x'), 'DELETE /api/v1/webhooks/wh_x'],
    ['referrers.remove', (c) => c.referrers.remove('rfr_x'), 'DELETE /api/v1/referrers/rfr_x'],
    ['templates.remove', (c) => c.templates.remove('tpl_x'), 'DELETE /api/v1/templates/tpl_x'],
    ['notifications.markRead', (c) => c.notifications.markRead('ntf_x'), 'POST /api/v1/notifications/ntf_x/mark-read'],
    ['notifications.markAllRead', (c) => c.notifications.markAllRead(), 'POST /api/v1/notifications/mark-all-read'],
    ['activity.list', (c) => c.activity.list(), 'GET /api/v1/activity'],
  ];
  const once: [string, (c: ApiClient) => Promise<unknown>, string][] = [
    ['exams.create', (c) => c.exams.create({ name: 'x', files: [{ name: 'a', size: 1 }] }), 'POST /api/v1/exams'],
    ['exams.share', (c) => c.exams.share('exm_x', { to: 'a@b.cl' }), 'POST /api/v1/exams/exm_x/share'],
    [
      'exams.createExtra',
      (c) => c.exams.createExtra('exm_x', { label: 'l', files: [{ name: 'a', size: 1 }] }),
      'POST /api/v1/exams/exm_x/extras',
    ],
    ['exams.rotateAccessPin', (c) => c.exams.rotateAccessPin('exm_x'), 'POST /api/v1/exams/exm_x/access-pin'],
    ['exams.enableEmbed', (c) => c.exams.enableEmbed('exm_x'), 'POST /api/v1/exams/exm_x/embed'],
    ['consent.init', (c) => c.consent.init('exm_x'), 'POST /api/v1/exams/exm_x/consent'],
    [
      'consent.signInPerson',
      (c) =>
        c.consent.signInPerson('exm_x', { signer_name: 'A', signer_rut: '1-9', signature_image: 'x', accepted: true }),
      'POST /api/v1/exams/exm_x/consent/sign-inperson',
    ],
    [
      'consent.sendEmail',
      (c) => c.consent.sendEmail('exm_x', { to: 'a@b.cl' }),
      'POST /api/v1/exams/exm_x/consent/email',
    ],
    ['reports.upload', (c) => c.reports.upload('exm_x', { pdf_base64: 'JVBERi0=' }), 'POST /api/v1/exams/exm_x/report'],
    ['reports.sign', (c) => c.reports.sign('exm_x'), 'POST /api/v1/exams/exm_x/report/sign'],
    [
      'webhooks.create',
      (c) => c.webhooks.create({ url: 'https://example.org/h', events: ['test.ping'] }),
      'POST /api/v1/webhooks',
    ],
    ['webhooks.test', (c) => c.webhooks.test('wh_x'), 'POST /api/v1/webhooks/wh_x/test'],
    ['referrers.create', (c) => c.referrers.create({ name: 'Dra. Pérez' }), 'POST /api/v1/referrers'],
    ['templates.create', (c) => c.templates.create({ name: 't', pages: [] }), 'POST /api/v1/templates'],
    ['support.create', (c) => c.support.create({ subject: 's', message: 'm' }), 'POST /api/v1/support/tickets'],
  ];

  it.each(idempotent)('%s is sent again after a 500', async (_name, call, match) => {
    await arm('error500', 1, match);
    const { client, events } = clientFor(emu, 'pro');
    const outcome = await call(client).then(
      () => 'ok',
      (e: unknown) => e,
    );
    expect(outcome).not.toMatchObject({ code: 'server_error' });
    if (outcome !== 'ok') expect(outcome).toBeInstanceOf(ApiError);
    expect(attempts(events)).toBe(2);
    expect(await armed()).toEqual([]);
  });

  it.each(once)('%s is sent once and its 500 surfaces', async (_name, call, match) => {
    await arm('error500', 1, match);
    const { client, events } = clientFor(emu, 'pro');
    const outcome = await call(client).catch((e: unknown) => e);
    expect(outcome).toMatchObject({ code: 'server_error' });
    expect(attempts(events as TransportEvent[])).toBe(1);
  });
});
