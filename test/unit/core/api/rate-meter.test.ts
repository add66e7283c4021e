import { describe, expect, it } from 'vitest';
import { parseRetryAfter, RateMeter, type RateLimitState } from '@main/core/api/http/rate-meter';

describe('RateMeter', () => {
  it('starts empty and reads the X-RateLimit-* headers', () => {
    const m = new RateMeter();
    expect(m.snapshot()).toEqual({ limit: null, remaining: null, reset: null, blockedUntil: null, lastUpdated: null });
    const now = new Date('2026-03-02T10:00:00Z');
    m.updateFromHeaders(
      { 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '997', 'x-ratelimit-reset': '1772449200' },
      now,
    );
    expect(m.snapshot()).toEqual({
      limit: 1000,
      remaining: 997,
      reset: new Date(1772449200 * 1000),
      blockedUntil: null,
      lastUpdated: now,
    });
  });

  it('ignores answers without the headers and unreadable values', () => {
    const m = new RateMeter();
    m.updateFromHeaders({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '5' });
    const before = m.snapshot();
    m.updateFromHeaders({ 'content-type': 'image/png' });
    m.updateFromHeaders({ 'x-ratelimit-remaining': 'many' });
    expect(m.snapshot().remaining).toBe(5);
    expect(m.snapshot().limit).toBe(before.limit);
  });

  it('blocks until Retry-After after a 429 and tells how long is left', () => {
    const m = new RateMeter();
    const now = new Date('2026-03-02T10:00:00Z');
    m.recordRateLimited(30, now);
    expect(m.snapshot().remaining).toBe(0);
    expect(m.snapshot().blockedUntil).toEqual(new Date('2026-03-02T10:00:30Z'));
    expect(m.waitMs(new Date('2026-03-02T10:00:10Z'))).toBe(20_000);
    expect(m.waitMs(new Date('2026-03-02T10:00:31Z'))).toBe(0);
    // A shorter Retry-After never shortens a longer block already known.
    m.recordRateLimited(5, now);
    expect(m.snapshot().blockedUntil).toEqual(new Date('2026-03-02T10:00:30Z'));
  });

  it('clears a past block when an accepted answer comes in', () => {
    const m = new RateMeter();
    m.recordRateLimited(1, new Date('2026-03-02T10:00:00Z'));
    m.updateFromHeaders({ 'x-ratelimit-remaining': '3' }, new Date('2026-03-02T10:00:02Z'));
    expect(m.snapshot().blockedUntil).toBeNull();
  });

  it('notifies subscribers on every change until they unsubscribe, surviving a throwing one', () => {
    const m = new RateMeter();
    const seen: RateLimitState[] = [];
    m.subscribe(() => {
      throw new Error('closed window');
    });
    const off = m.subscribe((s) => seen.push(s));
    m.updateFromHeaders({ 'x-ratelimit-remaining': '9' });
    m.recordRateLimited(3);
    off();
    m.updateFromHeaders({ 'x-ratelimit-remaining': '8' });
    expect(seen.map((s) => s.remaining)).toEqual([9, 0]);
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2026-03-02T10:00:00Z');
  it('reads delta seconds and HTTP dates', () => {
    expect(parseRetryAfter('17', now)).toBe(17);
    expect(parseRetryAfter('Mon, 02 Mar 2026 10:01:00 GMT', now)).toBe(60);
    expect(parseRetryAfter('Mon, 02 Mar 2026 09:00:00 GMT', now)).toBe(0);
  });
  it('gives undefined for absent or unreadable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});
