// The background scheduler's budget rules, on a clock the test moves by hand.
import { describe, expect, it } from 'vitest';
import type { PollClock, RateGate } from '@main/core/agent/background/poll-scheduler';
import { effectiveInterval, pollBudget, pollCeiling, PollScheduler } from '@main/core/agent/background/poll-scheduler';
import { ApiError } from '@main/core/api/http/api-errors';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** A clock whose timers fire only when the test advances it. */
class ManualClock implements PollClock {
  t = 0;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private seq = 0;
  now = (): number => this.t;
  setTimer = (fn: () => void, ms: number): unknown => {
    const id = ++this.seq;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  };
  clearTimer = (h: unknown): void => {
    this.timers = this.timers.filter((x) => x.id !== h);
  };
  fromWallMs = (ms: number): number => ms;
  /** Moves time forward, firing due timers in order and letting each run's promise settle. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    // A scheduler that never lets time pass (a task run back to back) fails the test instead of hanging it.
    for (let fired = 0; ; fired++) {
      if (fired > 5_000) throw new Error('more than 5000 timers fired in one advance: a task runs without any wait');
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.t = Math.max(this.t, next.at);
      next.fn();
      for (let i = 0; i < 10; i++) await Promise.resolve();
    }
    this.t = end;
  }
}

const gateFor =
  (limit: number | null, extra: Partial<ReturnType<RateGate>> = {}): RateGate =>
  () => ({ limit, remaining: null, blockedForWallMs: 0, resetInWallMs: null, ...extra });

describe('poll scheduler', () => {
  it('gives background work 8 calls an hour on Free and scales with the plan', () => {
    expect(pollBudget(null)).toBe(8);
    expect(pollBudget(100)).toBe(8);
    expect(pollBudget(1000)).toBe(80);
    expect(pollBudget(5000)).toBe(400);
    const task = { id: 'x', intervalMs: 15 * MIN, run: async () => undefined };
    expect(effectiveInterval(task, 100)).toBe(15 * MIN);
    expect(effectiveInterval(task, 1000)).toBe(1.5 * MIN);
    // Never below the minimum, whatever the plan.
    expect(effectiveInterval(task, 10_000)).toBe(MIN);
  });

  it('never spends more than the budget in a rolling hour, however many tasks ask', async () => {
    const clock = new ManualClock();
    const s = new PollScheduler({ clock, gate: gateFor(100) });
    const runs: number[] = [];
    for (let i = 0; i < 5; i++)
      s.register({
        id: `t${i}`,
        intervalMs: 5 * MIN,
        minIntervalMs: 5 * MIN,
        run: async () => void runs.push(clock.now()),
      });
    await clock.advance(HOUR - 1);
    expect(runs.length).toBe(8);
    // Over three hours the rolling window still holds at most 8.
    await clock.advance(2 * HOUR);
    for (const t of runs) expect(runs.filter((u) => u > t - HOUR && u <= t).length).toBeLessThanOrEqual(8);
    expect(runs.length).toBeGreaterThanOrEqual(24);
    s.stop();
  });

  it('does not count a run that sent nothing', async () => {
    const clock = new ManualClock();
    const s = new PollScheduler({ clock, gate: gateFor(100) });
    s.register({ id: 'idle', intervalMs: MIN, run: async () => false });
    await clock.advance(HOUR);
    expect(s.callsInLastHour()).toBe(0);
    s.stop();
  });

  it('waits out Retry-After and backs off the task that hit a 429', async () => {
    const clock = new ManualClock();
    let blockedUntil = 0;
    const gate: RateGate = () => ({
      limit: 100,
      remaining: null,
      blockedForWallMs: Math.max(0, blockedUntil - clock.now()),
      resetInWallMs: null,
    });
    const s = new PollScheduler({ clock, gate });
    const runs: number[] = [];
    let refuse = true;
    s.register({
      id: 'n',
      intervalMs: 15 * MIN,
      run: async () => {
        runs.push(clock.now());
        if (refuse) {
          refuse = false;
          blockedUntil = clock.now() + 40 * MIN;
          throw new ApiError('rate_limited', { retryAfterSeconds: 40 * 60 });
        }
      },
    });
    await clock.advance(39 * MIN);
    expect(runs).toEqual([0]);
    await clock.advance(2 * MIN);
    expect(runs).toEqual([0, 40 * MIN]);
    s.stop();
  });

  it('doubles the wait after each failure, up to the maximum, and resets after a success', async () => {
    const clock = new ManualClock();
    const errors: string[] = [];
    const s = new PollScheduler({ clock, gate: gateFor(100), onError: (id) => errors.push(id) });
    const runs: number[] = [];
    let fail = 3;
    s.register({
      id: 'f',
      intervalMs: 10 * MIN,
      maxBackoffMs: 45 * MIN,
      run: async () => {
        runs.push(clock.now() / MIN);
        if (fail-- > 0) throw new Error('offline');
      },
    });
    await clock.advance(3 * HOUR);
    // 0, then +20, +40, +45 (capped), then the normal 10-minute interval.
    expect(runs.slice(0, 6)).toEqual([0, 20, 60, 105, 115, 125]);
    expect(errors).toEqual(['f', 'f', 'f']);
    s.stop();
  });

  it('leaves the last tenth of the allowance to the front desk', async () => {
    const clock = new ManualClock();
    const s = new PollScheduler({ clock, gate: gateFor(100, { remaining: 5, resetInWallMs: 20 * MIN }) });
    const runs: number[] = [];
    s.register({ id: 'n', intervalMs: 15 * MIN, run: async () => void runs.push(clock.now()) });
    await clock.advance(19 * MIN);
    expect(runs).toEqual([]);
    s.stop();
  });

  it('lets another service register its own task and waits a full interval after markFresh', async () => {
    const clock = new ManualClock();
    const s = new PollScheduler({ clock, gate: gateFor(100) });
    const runs: number[] = [];
    const off = s.register({
      id: 'consent-status',
      intervalMs: 30 * MIN,
      initialDelayMs: 5 * MIN,
      run: async () => void runs.push(clock.now() / MIN),
    });
    await clock.advance(4 * MIN);
    s.markFresh('consent-status');
    await clock.advance(40 * MIN);
    expect(runs).toEqual([34]);
    off();
    await clock.advance(2 * HOUR);
    expect(runs).toEqual([34]);
    s.stop();
  });

  it('holds a ceiling on everything it runs, foreground included, whatever the tasks ask', async () => {
    expect(pollCeiling(100)).toBe(40);
    expect(pollCeiling(1000)).toBe(400);
    const clock = new ManualClock();
    const s = new PollScheduler({ clock, gate: gateFor(100) });
    const runs: number[] = [];
    const run = async (): Promise<boolean> => {
      runs.push(clock.now());
      return true;
    };
    // A rogue foreground task with no wait at all, two thousand status watches, and the background.
    s.register({ id: 'rogue', foreground: true, intervalMs: 0, minIntervalMs: 0, nextDelayMs: () => 0, run });
    for (let i = 0; i < 2000; i++)
      s.register({
        id: `watch-${i}`,
        foreground: true,
        intervalMs: 3000,
        minIntervalMs: 3000,
        nextDelayMs: () => 3000,
        run,
      });
    for (let i = 0; i < 3; i++) s.register({ id: `bg-${i}`, intervalMs: MIN, minIntervalMs: MIN, run });
    await clock.advance(3 * HOUR);
    expect(runs.length).toBeGreaterThanOrEqual(3 * 40 - 3);
    for (const t of runs) expect(runs.filter((u) => u > t - HOUR && u <= t).length).toBeLessThanOrEqual(40);
    s.stop();
  });

  it('never runs a task whose one run would cost more than the ceiling', async () => {
    const clock = new ManualClock();
    const errors: string[] = [];
    const s = new PollScheduler({ clock, gate: gateFor(100), onError: (id) => errors.push(id) });
    let ran = 0;
    s.register({ id: 'greedy', foreground: true, calls: 41, intervalMs: MIN, run: async () => void ran++ });
    await clock.advance(2 * HOUR);
    expect(ran).toBe(0);
    expect(errors).toEqual(['greedy']);
    s.stop();
  });

  it('a background refresh held by its budget does not hold back a foreground look', async () => {
    const clock = new ManualClock();
    const s = new PollScheduler({ clock, gate: gateFor(100) });
    const bg: number[] = [];
    s.register({ id: 'bg', intervalMs: MIN, minIntervalMs: MIN, run: async () => void bg.push(clock.now()) });
    await clock.advance(30 * MIN);
    // The background share (8 on Free) is spent, and the refresh is due again: it waits for the hour to pass.
    expect(bg).toHaveLength(8);
    const looks: number[] = [];
    s.register({
      id: 'consent-status:ex_1',
      foreground: true,
      intervalMs: 3000,
      initialDelayMs: 3000,
      nextDelayMs: (runs) => (runs < 3 ? 3000 : null),
      run: async () => void looks.push(clock.now()),
    });
    await clock.advance(MIN);
    expect(looks.map((t) => t - 30 * MIN)).toEqual([3000, 6000, 9000]);
    expect(bg).toHaveLength(8);
    s.stop();
  });
});
