import { afterEach, describe, expect, it, vi } from 'vitest';
import { PollScheduler, pollBudget } from '@main/core/agent/background/poll-scheduler';
import type { RateGate } from '@main/core/agent/background/poll-scheduler';
import {
  CONSENT_REFRESH_POLICY,
  ConsentStatusRefresher,
  consentRefreshDelay,
} from '@main/core/consent/status-refresher';

// The refresher runs on the agent's real poll scheduler (system clock, faked by vitest's timers).
type Gate = ReturnType<RateGate>;
const openGate: Gate = { limit: null, remaining: null, blockedForWallMs: 0, resetInWallMs: null };
const scheduler = (gate: () => Gate = () => openGate): PollScheduler => new PollScheduler({ gate });

afterEach(() => {
  vi.useRealTimers();
});

describe('the consent status refresher', () => {
  it('waits longer each time, up to a ceiling, and stops after its calls', () => {
    const delays = Array.from({ length: CONSENT_REFRESH_POLICY.maxCalls + 1 }, (_v, i) => consentRefreshDelay(i));
    expect(delays.slice(0, 7)).toEqual([3_000, 6_000, 12_000, 24_000, 48_000, 96_000, 120_000]);
    expect(delays[CONSENT_REFRESH_POLICY.maxCalls]).toBeNull();
    // The first hour costs at most 30 calls (the Free plan has 100 for everything).
    let t = 0;
    let calls = 0;
    for (let i = 0; ; i++) {
      const d = consentRefreshDelay(i);
      if (d === null || t + d > 3_600_000) break;
      t += d;
      calls += 1;
    }
    expect(calls).toBeLessThanOrEqual(CONSENT_REFRESH_POLICY.maxCalls);
    expect(calls).toBeGreaterThan(10);
  });

  it('looks until signed, then stops and says so once', async () => {
    vi.useFakeTimers();
    const answers: ('pending' | 'signed')[] = ['pending', 'pending', 'signed'];
    const read = vi.fn(async () => answers.shift() ?? 'signed');
    const signed = vi.fn();
    const r = new ConsentStatusRefresher({
      poller: scheduler(),
      read,
      onSigned: signed,
      policy: { firstMs: 100, factor: 2, maxMs: 1000, maxCalls: 10 },
    });
    r.watch('exm_1');
    await vi.advanceTimersByTimeAsync(99);
    expect(read).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(read).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(400);
    expect(read).toHaveBeenCalledTimes(3);
    expect(signed).toHaveBeenCalledWith('exm_1');
    expect(r.watching('exm_1')).toBe(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(read).toHaveBeenCalledTimes(3);
    expect(signed).toHaveBeenCalledTimes(1);
  });

  it('stops when the panel closes, and when there is no consent', async () => {
    vi.useFakeTimers();
    const read = vi.fn(async (id: string) => (id === 'none' ? ('none' as const) : ('pending' as const)));
    const r = new ConsentStatusRefresher({
      poller: scheduler(),
      read,
      onSigned: () => undefined,
      policy: { firstMs: 100, factor: 1, maxMs: 100, maxCalls: 100 },
    });
    r.watch('exm_1');
    r.watch('none');
    await vi.advanceTimersByTimeAsync(350);
    expect(read.mock.calls.filter(([id]) => id === 'exm_1')).toHaveLength(3);
    expect(read.mock.calls.filter(([id]) => id === 'none')).toHaveLength(1);
    r.unwatch('exm_1');
    await vi.advanceTimersByTimeAsync(1000);
    expect(read).toHaveBeenCalledTimes(4);
  });

  it('keeps going after a failed look, with the next longer wait', async () => {
    vi.useFakeTimers();
    let n = 0;
    const read = vi.fn(async () => {
      n += 1;
      if (n === 1) throw new Error('network');
      return 'signed' as const;
    });
    const signed = vi.fn();
    const errors: unknown[] = [];
    const r = new ConsentStatusRefresher({
      poller: scheduler(),
      read,
      onSigned: signed,
      onError: (_id, e) => errors.push(e),
      policy: { firstMs: 100, factor: 2, maxMs: 1000, maxCalls: 5 },
    });
    r.watch('exm_1');
    await vi.advanceTimersByTimeAsync(100);
    expect(errors).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(signed).toHaveBeenCalledTimes(1);
  });

  it('runs on the shared poll scheduler: its looks count in the hour, and background refreshes give way after them', async () => {
    vi.useFakeTimers();
    const poll = scheduler(() => ({ ...openGate, limit: 100 }));
    const read = vi.fn(async () => 'pending' as const);
    const r = new ConsentStatusRefresher({
      poller: poll,
      read,
      onSigned: () => undefined,
      policy: { firstMs: 1_000, factor: 1, maxMs: 1_000, maxCalls: 12 },
    });
    r.watch('exm_1');
    await vi.advanceTimersByTimeAsync(20_000);
    // A foreground watch is not held to the background share (8 an hour on Free) but is counted in it…
    expect(read).toHaveBeenCalledTimes(12);
    expect(poll.callsInLastHour()).toBe(12);
    expect(r.watching('exm_1')).toBe(false);
    // …so an idle refresh registered now waits until those calls leave the rolling hour.
    const idle = vi.fn(async () => true);
    poll.register({ id: 'notifications', intervalMs: 15 * 60_000, run: idle });
    await vi.advanceTimersByTimeAsync(30 * 60_000);
    expect(pollBudget(100)).toBeLessThan(12);
    expect(idle).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(31 * 60_000);
    expect(idle).toHaveBeenCalled();
    poll.stop();
  });

  it('sends nothing while the service asks to wait (Retry-After), then looks again', async () => {
    vi.useFakeTimers();
    let blockedUntil = Date.now() + 30_000;
    const poll = scheduler(() => ({
      ...openGate,
      limit: 100,
      blockedForWallMs: Math.max(0, blockedUntil - Date.now()),
    }));
    const read = vi.fn(async () => 'signed' as const);
    const signed = vi.fn();
    const r = new ConsentStatusRefresher({
      poller: poll,
      read,
      onSigned: signed,
      policy: { firstMs: 1_000, factor: 2, maxMs: 8_000, maxCalls: 10 },
    });
    r.watch('exm_1');
    await vi.advanceTimersByTimeAsync(29_000);
    expect(read).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(read).toHaveBeenCalledTimes(1);
    expect(signed).toHaveBeenCalledWith('exm_1');
    blockedUntil = 0;
    poll.stop();
  });
});
