import type { Clock } from './clock';

export type RateDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetAt: number;
  retryAfterSeconds: number;
};

/** A rolling one-hour window per key (time-scaled), counting only accepted requests. */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly clock: Clock) {}

  private windowMs(): number {
    return this.clock.scaled(3600);
  }

  /** Counts a request for `bucket` if it fits under `limit`. */
  take(bucket: string, limit: number): RateDecision {
    const now = this.clock.now();
    const windowMs = this.windowMs();
    const list = (this.hits.get(bucket) ?? []).filter((t) => t > now - windowMs);
    this.hits.set(bucket, list);
    const oldest = list[0];
    if (list.length >= limit && oldest !== undefined) {
      const resetAt = oldest + windowMs;
      return {
        allowed: false,
        limit,
        remaining: 0,
        resetAt,
        retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)),
      };
    }
    list.push(now);
    const first = list[0] ?? now;
    return { allowed: true, limit, remaining: limit - list.length, resetAt: first + windowMs, retryAfterSeconds: 0 };
  }
}
