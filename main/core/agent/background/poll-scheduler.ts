// The one scheduler that owns every background refresh (notifications, account, activity, and
// whatever else registers later, e.g. consent status). The service counts every call against the
// key's hourly allowance (API-v1.md §8.1: 100 on the Free plan), and the front desk needs most of it
// for real work, so background polling gets a small, fixed share of the plan's limit:
//
//   - budget: at most BUDGET_SHARE × limit background calls in any rolling hour (8 on Free, 80 on
//     Pro, 400 on Clinica), enforced here whatever the tasks ask for;
//   - intervals: a task states its interval for the Free plan; larger plans shorten it in proportion
//     to their limit (never below the task's minimum);
//   - after a 429 nothing runs before the service's Retry-After (read from the rate meter), and the
//     task that hit it backs off like any failing task (doubling its interval, up to its maximum);
//   - when the key is nearly out (under RESERVE_SHARE of its limit left), background work waits for
//     the window to reset, so what is left stays for the receptionist.
//
// Tasks run one at a time. Registering a task:
//
//   const off = scheduler.register({
//     id: 'consent-status',
//     intervalMs: 30 * 60_000,        // every 30 min on Free, every 3 min on Pro
//     minIntervalMs: 60_000,          // never more often than this
//     calls: 1,                       // API calls one run makes (for the budget)
//     run: async (signal) => { … },   // return false when it sent nothing (no key, say)
//   });
//   scheduler.markFresh('consent-status'); // the window just loaded it: wait a full interval
//   off();                                  // unregister
//
// Foreground tasks: a refresh the operator is waiting on with a panel open (a consent being signed
// on the patient's phone) is marked `foreground`. Its calls count in the same rolling hour, so the
// idle refreshes give way after it, and it waits out a 429 and the reserve like any task; but the
// background share does not hold it back (the receptionist is looking at the screen). It states its
// own schedule with `nextDelayMs(runs)` (null: done) and ends itself by resolving 'done'.
//
// The ceiling: whatever the tasks ask (2000 watches, a schedule of zero waits, a task that never
// ends), everything this scheduler runs together stays within CEILING_SHARE × limit calls in any
// rolling hour (40 on Free); a task whose one run would cost more than that never runs.
import { isApiError } from '../../api/http';
import type { PollTask } from '../../poll-task';

/** The hourly limit assumed until the service tells us (X-RateLimit-Limit): the Free plan's. */
export const FREE_PLAN_LIMIT = 100;
/** Share of the plan's hourly limit background polling may spend. */
export const BUDGET_SHARE = 0.08;
/** Share of the plan's hourly limit everything the scheduler runs (foreground included) may spend. */
export const CEILING_SHARE = 0.4;
/** Below this share of the limit left, background polling waits for the window to reset. */
export const RESERVE_SHARE = 0.1;
const HOUR_MS = 3_600_000;

/** Time as the scheduler sees it. Tests and the budget benchmark run it faster than the wall clock. */
export type PollClock = {
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  /** Converts a wall-clock duration (the rate meter's, Retry-After) into this clock's milliseconds. */
  fromWallMs(ms: number): number;
};

export const systemPollClock: PollClock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => {
    const t = setTimeout(fn, ms);
    // Background polling never keeps a CLI process alive on its own.
    t.unref?.();
    return t;
  },
  clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  fromWallMs: (ms) => ms,
};

/**
 * A clock running `1 / timeScale` times faster than the wall clock: with the emulator's
 * `--time-scale f` and this clock at the same f, one service hour passes in 3600 × f seconds on both.
 */
export function scaledPollClock(timeScale: number): PollClock {
  const wall0 = Date.now();
  return {
    now: () => wall0 + (Date.now() - wall0) / timeScale,
    setTimer: (fn, ms) => setTimeout(fn, Math.max(0, ms * timeScale)),
    clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    fromWallMs: (ms) => ms / timeScale,
  };
}

/** What the scheduler reads from the key's rate meter before each run. */
export type RateGate = () => {
  /** X-RateLimit-Limit, null until an answer said. */
  limit: number | null;
  remaining: number | null;
  /** Wall-clock ms until the service accepts calls again after a 429 (0: not blocked). */
  blockedForWallMs: number;
  /** Wall-clock ms until the window frees a slot (X-RateLimit-Reset), null when unknown. */
  resetInWallMs: number | null;
};

export type { PollTask } from '../../poll-task';

export type PollSchedulerOptions = {
  clock?: PollClock;
  gate: RateGate;
  /** Called with a task's id and error when a run fails (never with patient data: ids and codes only). */
  onError?: (taskId: string, error: unknown) => void;
};

type Entry = { task: PollTask; nextAt: number; failures: number; runs: number };

/** Background calls allowed per rolling hour for a plan with `limit` calls an hour. */
export function pollBudget(limit: number | null): number {
  return Math.max(1, Math.floor((limit ?? FREE_PLAN_LIMIT) * BUDGET_SHARE));
}

/** Calls allowed per rolling hour to everything the scheduler runs, on a plan with `limit` calls an hour. */
export function pollCeiling(limit: number | null): number {
  return Math.max(1, Math.floor((limit ?? FREE_PLAN_LIMIT) * CEILING_SHARE));
}

/** A task's interval on a plan with `limit` calls an hour. */
export function effectiveInterval(task: PollTask, limit: number | null): number {
  const scale = FREE_PLAN_LIMIT / Math.max(1, limit ?? FREE_PLAN_LIMIT);
  return Math.max(task.minIntervalMs ?? 60_000, Math.round(task.intervalMs * scale));
}

/** Runs registered background tasks within the plan's polling budget. */
export class PollScheduler {
  private readonly clock: PollClock;
  private readonly entries = new Map<string, Entry>();
  /** Clock times of the background calls of the last hour. */
  private spent: number[] = [];
  private timer: unknown = null;
  private running: AbortController | null = null;
  private stopped = false;

  constructor(private readonly options: PollSchedulerOptions) {
    this.clock = options.clock ?? systemPollClock;
  }

  /** Adds a task (replacing one with the same id); returns the function that removes it. */
  register(task: PollTask): () => void {
    this.entries.set(task.id, { task, nextAt: this.clock.now() + (task.initialDelayMs ?? 0), failures: 0, runs: 0 });
    this.reschedule();
    return () => {
      if (this.entries.get(task.id)?.task === task) this.entries.delete(task.id);
      this.reschedule();
    };
  }

  /** The data of `id` was just loaded by someone else (the window): its next run waits a full interval. */
  markFresh(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    e.nextAt = Math.max(e.nextAt, this.clock.now() + effectiveInterval(e.task, this.options.gate().limit));
    this.reschedule();
  }

  /** Background calls counted in the current rolling hour. */
  callsInLastHour(): number {
    this.prune(this.clock.now());
    return this.spent.length;
  }

  /** Stops every timer and aborts the run in progress. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.clock.clearTimer(this.timer);
    this.timer = null;
    this.running?.abort();
  }

  private prune(now: number): void {
    this.spent = this.spent.filter((t) => t > now - HOUR_MS);
  }

  private reschedule(): void {
    if (this.stopped || this.running) return;
    if (this.timer !== null) this.clock.clearTimer(this.timer);
    this.timer = null;
    const wait = this.nextWait();
    if (wait === null) return;
    this.timer = this.clock.setTimer(() => {
      this.timer = null;
      void this.tick();
    }, wait);
  }

  /** Milliseconds (scheduler clock) until something may run; null when nothing is registered. */
  private nextWait(): number | null {
    const n = this.next();
    return n ? Math.max(0, n.at - this.clock.now()) : null;
  }

  /**
   * The task that may run first, and when (scheduler clock). Each task is held by its own share (a
   * background refresh over the background budget does not hold back a foreground look, nor does
   * anything queue behind it); a 429's Retry-After and the reserve hold every task.
   */
  private next(): { entry: Entry; at: number } | null {
    const now = this.clock.now();
    const gate = this.options.gate();
    this.prune(now);
    let best: { entry: Entry; at: number } | null = null;
    for (const e of this.entries.values()) {
      const at = Math.max(e.nextAt, this.shareAllowsAt(e.task, gate.limit));
      if (!best || at < best.at) best = { entry: e, at };
    }
    if (!best) return null;
    let at = best.at;
    if (gate.blockedForWallMs > 0) at = Math.max(at, now + this.clock.fromWallMs(gate.blockedForWallMs));
    // A reading whose reset has passed is stale: the window has moved on since.
    if (
      gate.limit !== null &&
      gate.remaining !== null &&
      gate.remaining < gate.limit * RESERVE_SHARE &&
      gate.resetInWallMs !== null &&
      gate.resetInWallMs > 0
    ) {
      at = Math.max(at, now + this.clock.fromWallMs(gate.resetInWallMs));
    }
    return { entry: best.entry, at };
  }

  /** When the calls of the last hour leave room for one run of `task` (-Infinity: now). */
  private shareAllowsAt(task: PollTask, limit: number | null): number {
    const calls = task.calls ?? 1;
    const budget = task.foreground ? pollCeiling(limit) : Math.min(pollBudget(limit), pollCeiling(limit));
    if (this.spent.length + calls <= budget) return -Infinity;
    // The oldest calls leave the window one by one; wait until enough have.
    // (A run dearer than the share itself waits for an empty window.)
    const freeing = this.spent[Math.min(this.spent.length + calls - budget - 1, this.spent.length - 1)];
    return freeing === undefined ? -Infinity : freeing + HOUR_MS + 1;
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.running) return;
    const n = this.next();
    if (!n) return;
    if (n.at > this.clock.now()) return this.reschedule();
    const { entry } = n;
    const { task } = entry;
    const calls = task.calls ?? 1;
    const ceiling = pollCeiling(this.options.gate().limit);
    if (calls > ceiling) {
      // One run would cost more than the scheduler may spend in an hour: it never runs.
      this.entries.delete(task.id);
      this.options.onError?.(task.id, new Error(`a run of ${calls} calls exceeds the hourly ceiling of ${ceiling}`));
      return this.reschedule();
    }
    this.prune(this.clock.now());
    if (this.spent.length + calls > ceiling) return this.reschedule();
    const startedAt = this.clock.now();
    const stamps = Array.from({ length: calls }, () => startedAt);
    this.spent.push(...stamps);
    const controller = new AbortController();
    this.running = controller;
    let ok = true;
    let error: unknown;
    let sent = true;
    let done = false;
    try {
      const result = await task.run(controller.signal);
      sent = result !== false;
      done = result === 'done';
    } catch (e) {
      ok = false;
      error = e;
    }
    this.running = null;
    if (this.stopped) return;
    if (!sent) this.spent.splice(this.spent.indexOf(startedAt), calls);
    if (!ok) this.options.onError?.(task.id, error);
    // The task may have been unregistered or replaced while it ran.
    if (this.entries.get(task.id) === entry) {
      entry.runs += 1;
      const own = task.nextDelayMs ? task.nextDelayMs(entry.runs) : undefined;
      if (done || own === null) this.entries.delete(task.id);
    }
    if (this.entries.get(task.id) === entry) {
      const now = this.clock.now();
      const interval = effectiveInterval(task, this.options.gate().limit);
      if (ok) {
        entry.failures = 0;
        // A run that sent nothing (no key yet) cost nothing: look again soon, so a key saved
        // meanwhile gets its first refresh without a full interval's wait.
        const next = task.nextDelayMs?.(entry.runs) ?? interval;
        entry.nextAt = now + (sent ? next : Math.min(next, task.minIntervalMs ?? 60_000));
      } else {
        entry.failures += 1;
        const backoff = Math.min(task.maxBackoffMs ?? HOUR_MS, interval * 2 ** entry.failures);
        const retryAfter = isApiError(error, 'rate_limited')
          ? this.clock.fromWallMs(error.retryAfterSeconds * 1000)
          : 0;
        entry.nextAt = now + Math.max(backoff, retryAfter);
      }
    }
    this.reschedule();
  }
}
