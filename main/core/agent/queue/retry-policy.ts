// When the queue tries a job again by itself after a network fault (a 429 that would not end,
// the service restarting…): after 5 s, 15 s, 30 s, 1 min, 2 min, then every 5 min. After the third
// failure in a row the user is told it keeps failing (it keeps trying).
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [5_000, 15_000, 30_000, 60_000, 120_000, 300_000];
const STRUGGLING_AFTER = 3;

/** The wait before retry number `retries` (0-based); the last delay repeats. */
export function retryWaitMs(retries: number, delays: readonly number[] = DEFAULT_RETRY_DELAYS_MS): number {
  return delays[Math.min(retries, delays.length - 1)] ?? 60_000;
}

/** True at the failure after which the user hears that the job keeps failing. */
export function isStruggling(retries: number): boolean {
  return retries === STRUGGLING_AFTER;
}
