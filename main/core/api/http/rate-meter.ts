import { Emitter } from '../../emitter';

/** What the client knows about its key's rate limit, as of `lastUpdated`. */
export type RateLimitState = {
  /** Requests allowed per window (X-RateLimit-Limit). */
  limit: number | null;
  /** Requests left in the window (X-RateLimit-Remaining). */
  remaining: number | null;
  /** When the window frees a slot again (X-RateLimit-Reset). */
  reset: Date | null;
  /** Until when the service refuses calls after a 429 (Retry-After); null when not limited. */
  blockedUntil: Date | null;
  lastUpdated: Date | null;
};

export type RateMeterListener = (state: RateLimitState) => void;

/** A header reader that works for got's plain header objects and for fetch Headers alike. */
export type HeaderSource = Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  const v = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

function nonNegativeInt(v: string | undefined): number | null {
  if (v === undefined || v.trim() === '') return null;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : null;
}

/**
 * Reads Retry-After (delta seconds or an HTTP date) into seconds from `now`; undefined when absent
 * or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, (at - now.getTime()) / 1000);
}

/**
 * The rate-limit meter the UI reads: fed by the X-RateLimit-* headers of every answer and by 429
 * answers. One meter per API key (the service counts per key).
 */
export class RateMeter {
  private state: RateLimitState = { limit: null, remaining: null, reset: null, blockedUntil: null, lastUpdated: null };
  /** A failing listener (a closed window, say) must not break API calls. */
  private readonly changes = new Emitter<[RateLimitState]>();

  /** The current state (a copy). */
  snapshot(): RateLimitState {
    return { ...this.state };
  }

  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: RateMeterListener): () => void {
    return this.changes.subscribe(listener);
  }

  /** Updates from an answer's X-RateLimit-* headers; answers without them change nothing. */
  updateFromHeaders(headers: HeaderSource, now = new Date()): void {
    const limit = nonNegativeInt(header(headers, 'x-ratelimit-limit'));
    const remaining = nonNegativeInt(header(headers, 'x-ratelimit-remaining'));
    const resetUnix = nonNegativeInt(header(headers, 'x-ratelimit-reset'));
    if (limit === null && remaining === null && resetUnix === null) return;
    const next: RateLimitState = { ...this.state, lastUpdated: now };
    if (limit !== null) next.limit = limit;
    if (remaining !== null) next.remaining = remaining;
    if (resetUnix !== null) next.reset = new Date(resetUnix * 1000);
    // An accepted call (remaining above zero) means the block, if any, is over.
    if (remaining !== null && remaining > 0 && next.blockedUntil && next.blockedUntil <= now) next.blockedUntil = null;
    this.set(next);
  }

  /** Records a 429: nothing may be sent before `now + retryAfterSeconds`. */
  recordRateLimited(retryAfterSeconds: number, now = new Date()): void {
    const until = new Date(now.getTime() + Math.max(0, retryAfterSeconds) * 1000);
    const blockedUntil = this.state.blockedUntil && this.state.blockedUntil > until ? this.state.blockedUntil : until;
    this.set({ ...this.state, remaining: 0, blockedUntil, lastUpdated: now });
  }

  /** Milliseconds still to wait before a call may be sent (0 when not blocked). */
  waitMs(now = new Date()): number {
    const until = this.state.blockedUntil;
    return until ? Math.max(0, until.getTime() - now.getTime()) : 0;
  }

  private set(next: RateLimitState): void {
    this.state = next;
    const copy = this.snapshot();
    this.changes.emit(copy);
  }
}
