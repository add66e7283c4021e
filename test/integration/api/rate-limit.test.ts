import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '@main/core/api/http/api-errors';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { attempts, clientFor, must } from '../../support/harness/api-clients';

// --time-scale 0.001 turns the one-hour window into 3.6 s, so the Free plan's 100 requests per
// hour run out in a burst and come back within seconds.
describe('client: rate limits against the emulator (Free plan, window 3.6 s)', () => {
  let emu: EmulatorProcess;
  beforeAll(async () => {
    emu = await EmulatorProcess.start({ timeScale: 0.001 });
  });
  afterAll(async () => {
    await emu.dispose();
  });

  /** Spends the Free key's whole window in one parallel burst. */
  async function exhaust(): Promise<void> {
    const { client } = clientFor(emu, 'free', { onRateLimit: 'throw' });
    const results = await Promise.allSettled(Array.from({ length: 100 }, () => client.account.me()));
    // Part of the previous window may still be in use: 429s in the burst are expected then.
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'rate_limited' });
  }

  it('a 429 in throw mode fails at once with the seconds to wait, and the meter shows the block', async () => {
    await exhaust();
    const { client, events } = clientFor(emu, 'free', { onRateLimit: 'throw' });
    const err = await client.account.me().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'rate_limited' });
    const rl = err as ApiError;
    expect(rl.code).toBe('rate_limited');
    expect(rl.status).toBe(429);
    expect(rl.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(rl.retryAfterSeconds).toBeLessThanOrEqual(4);
    expect(rl.message).toBe('rate_limited (HTTP 429) GET me');
    const state = client.meter.snapshot();
    expect(state.remaining).toBe(0);
    expect(state.limit).toBe(100);
    expect(must(state.blockedUntil).getTime()).toBeGreaterThan(Date.now());
    // Before Retry-After nothing more is sent: the next call fails locally.
    const again = await client.account.me().catch((e: unknown) => e);
    expect(again).toMatchObject({ code: 'rate_limited' });
    expect(attempts(events)).toBe(1);
  });

  it('in wait mode the call sleeps until Retry-After, never earlier, then succeeds', async () => {
    await exhaust();
    const { client, events } = clientFor(emu, 'free', { onRateLimit: 'wait' });
    let blockedUntil: Date | null = null;
    client.meter.subscribe((s) => {
      if (s.blockedUntil) blockedUntil = s.blockedUntil;
    });
    const started = Date.now();
    const me = await client.account.me();
    expect(me.plan).toBe('free');
    expect(blockedUntil).not.toBeNull();
    const sent = events.filter((e) => e.type === 'attempt');
    expect(sent.length).toBe(2);
    const retry = sent[1];
    expect(retry?.type === 'attempt' && retry.at.getTime()).toBeGreaterThanOrEqual(must<Date>(blockedUntil).getTime());
    expect(events.some((e) => e.type === 'rate_limit_wait')).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('a per-call choice overrides the client default', async () => {
    await exhaust();
    const { client } = clientFor(emu, 'free', { onRateLimit: 'wait' });
    await expect(client.account.me({ onRateLimit: 'throw' })).rejects.toMatchObject({ code: 'rate_limited' });
    const me = await client.account.me({ onRateLimit: 'wait' });
    expect(me.plan).toBe('free');
  });
});

// The same Free key behind a 3-minute window: a burst that a busy machine spreads over more than
// 3.6 s still leaves the key blocked when the cancelled call is made.
describe('client: cancelling a wait for Retry-After (Free plan, window 180 s)', () => {
  let emu: EmulatorProcess;
  beforeAll(async () => {
    emu = await EmulatorProcess.start({ timeScale: 0.05 });
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('a wait for Retry-After can be cancelled', async () => {
    const { client: burst } = clientFor(emu, 'free', { onRateLimit: 'throw' });
    await Promise.allSettled(Array.from({ length: 100 }, () => burst.account.me()));
    const { client } = clientFor(emu, 'free', { onRateLimit: 'wait' });
    const c = new AbortController();
    setTimeout(() => c.abort(), 150);
    const t = Date.now();
    await expect(client.account.me({ signal: c.signal })).rejects.toMatchObject({ code: 'aborted' });
    expect(Date.now() - t).toBeLessThan(900);
  });
});
