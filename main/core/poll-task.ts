// What a periodic refresh tells the agent's poll scheduler (agent/background/poll-scheduler.ts, where the
// budget rules are written). Declared below every layer so that feature services (consent, …)
// register tasks through a port without importing the agent.

export type PollTask = {
  /** Unique name, e.g. `notifications`. */
  id: string;
  /** How often to run on the Free plan; shortened in proportion on larger plans. */
  intervalMs: number;
  /** Never more often than this, whatever the plan (default 60 s). */
  minIntervalMs?: number;
  /** Longest wait after repeated failures (default 1 h). */
  maxBackoffMs?: number;
  /** Delay of the first run after registering (default 0). */
  initialDelayMs?: number;
  /** API calls one run makes (default 1), counted against the budget. */
  calls?: number;
  /** Work the operator is waiting on (see the header): counted, held by a 429 and the reserve, not by the share. */
  foreground?: boolean;
  /** Its own schedule: the wait after `runs` runs (failed ones included); null ends the task. */
  nextDelayMs?: (runs: number) => number | null;
  /** Does the work; resolves false when it sent nothing (no key in use, say), 'done' to end the task. */
  run(signal: AbortSignal): Promise<boolean | 'done' | undefined>;
};

/** The part of the scheduler a feature service needs: registering a task (returns its remover). */
export type PollRegistrar = { register(task: PollTask): () => void };
