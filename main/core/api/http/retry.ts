import { ApiError } from './api-errors';

/** Backoff for transient faults of calls that are safe to repeat. */
export type RetryPolicy = {
  /** Attempts in total for an idempotent call, the first included. */
  maxAttempts: number;
  baseMs: number;
  capMs: number;
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseMs: 300, capMs: 8000 };

/** The delays part of a policy (storage transfers count their attempts themselves). */
export type BackoffPolicy = Pick<RetryPolicy, 'baseMs' | 'capMs'>;

/**
 * "Full jitter" backoff: a random delay between 0 and min(cap, base·2^n) before retry n (0-based),
 * so that many clients hit by the same outage do not come back in step.
 */
export function backoffDelayMs(retryIndex: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(30, Math.max(0, retryIndex)));
  return Math.floor(random() * ceiling);
}

/**
 * Whether a failed attempt may be repeated: only transient faults (5xx, broken connections,
 * time-outs) and only for calls that are safe to repeat. Rate limits are handled apart.
 */
export function isRetryableFault(err: ApiError, idempotent: boolean): boolean {
  if (!idempotent) return false;
  // A refused proxy login or a certificate problem fails the same way every time.
  if (err.netFailure && err.netFailure.kind !== 'unreachable' && err.netFailure.kind !== 'name_not_found') return false;
  return err.code === 'server_error' || err.code === 'network_error' || err.code === 'timeout';
}

/** Sleeps `ms`, rejecting with AbortedError as soon as `signal` fires. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return sleep(ms, signal, () => new ApiError('aborted'));
}

/**
 * Resolves after `ms`, or rejects as soon as `signal` aborts: with `reason()` when given, else with
 * the signal's own reason (the engine tells a pause from a stop by it).
 */
export function sleep(
  ms: number,
  signal?: AbortSignal,
  reason: () => Error = () => abortReason(signal),
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(reason());
      return;
    }
    const stopListening = signal
      ? whenAborted(signal, () => {
          clearTimeout(timer);
          reject(reason());
        })
      : () => undefined;
    const timer = setTimeout(() => {
      stopListening();
      resolve();
    }, ms);
  });
}

const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `onAbort` once when `signal` aborts (the caller checks `signal.aborted` first); returns the
 * way to stop waiting. Every wait on one signal shares one listener: a job's signal is waited on by
 * each transfer and each bandwidth wait at once (two per connection), which as listeners of their
 * own passed Node's 10 per signal and printed MaxListenersExceededWarning although nothing leaked.
 */
export function whenAborted(signal: AbortSignal, onAbort: () => void): () => void {
  let callbacks = waiting.get(signal);
  if (!callbacks) {
    const set = new Set<() => void>();
    callbacks = set;
    waiting.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        waiting.delete(signal);
        for (const f of [...set]) f();
      },
      { once: true },
    );
  }
  const own = callbacks;
  const f = (): void => onAbort();
  own.add(f);
  return () => {
    own.delete(f);
  };
}

/** The error to throw for an aborted signal (its reason when it is an Error, else an AbortError). */
export function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  const err = new Error('The operation was aborted');
  err.name = 'AbortError';
  return err;
}
