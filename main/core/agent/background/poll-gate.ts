// What the poll scheduler reads before each background run: the active key's rate meter (its limit,
// what is left, a 429's wait, when the window frees a slot). No key yet: nothing is known. And the
// agent's one scheduler, built on that gate.
import type { RateMeter } from '../../api/http';
import type { Logger } from '../../log';
import type { PollClock, RateGate } from './poll-scheduler';
import { PollScheduler } from './poll-scheduler';
import { errorCode } from '../../log';

type MeterReading = Pick<RateMeter, 'snapshot' | 'waitMs'>;

export function meterGate(meter: () => MeterReading | undefined, now: () => number = Date.now): RateGate {
  return () => {
    const m = meter();
    const s = m?.snapshot();
    return {
      limit: s?.limit ?? null,
      remaining: s?.remaining ?? null,
      blockedForWallMs: m?.waitMs() ?? 0,
      resetInWallMs: s?.reset ? Math.max(0, s.reset.getTime() - now()) : null,
    };
  };
}

/** The one scheduler for every background refresh, within a share of the key's hourly allowance. */
export type SchedulerDeps = { meter: () => MeterReading | undefined; log: Logger; clock?: PollClock | undefined };

export function agentPollScheduler(o: SchedulerDeps): PollScheduler {
  return new PollScheduler({
    ...(o.clock ? { clock: o.clock } : {}),
    gate: meterGate(o.meter),
    onError: (task, e) => o.log.warn('background task failed', { task, code: errorCode(e) }),
  });
}
