import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@main/core/api/http/api-errors';
import {
  abortableSleep,
  backoffDelayMs,
  DEFAULT_RETRY_POLICY,
  isRetryableFault,
  sleep,
  whenAborted,
} from '@main/core/api/http/retry';

describe('backoff with full jitter', () => {
  const policy = { maxAttempts: 4, baseMs: 300, capMs: 8000 };

  it('draws each delay between 0 and base·2^n', () => {
    expect(backoffDelayMs(0, policy, () => 0)).toBe(0);
    expect(backoffDelayMs(0, policy, () => 0.999)).toBe(299);
    expect(backoffDelayMs(1, policy, () => 0.5)).toBe(300);
    expect(backoffDelayMs(2, policy, () => 0.999)).toBe(1198);
  });

  it('never exceeds the cap however many retries', () => {
    for (let n = 0; n < 40; n++) expect(backoffDelayMs(n, policy, () => 0.9999)).toBeLessThan(8000);
    expect(backoffDelayMs(10, policy, () => 0.5)).toBe(4000);
  });

  it('spreads delays instead of repeating one value', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelayMs(3, policy)));
    expect(delays.size).toBeGreaterThan(10);
  });

  it('defaults to 4 attempts, 300 ms base and 8 s cap', () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({ maxAttempts: 4, baseMs: 300, capMs: 8000 });
  });
});

describe('isRetryableFault', () => {
  it('repeats transient faults of idempotent calls only', () => {
    for (const err of [
      new ApiError('server_error'),
      new ApiError('network_error', { networkCode: 'ECONNRESET', mayHaveReachedService: true }),
      new ApiError('timeout', { timeoutMs: 1000 }),
    ]) {
      expect(isRetryableFault(err, true)).toBe(true);
      expect(isRetryableFault(err, false)).toBe(false);
    }
  });

  it('never repeats answers that would come back the same, nor 429 (handled apart)', () => {
    for (const err of [
      new ApiError('validation_error'),
      new ApiError('not_found'),
      new ApiError('rate_limited', { retryAfterSeconds: 5 }),
      new ApiError('aborted'),
    ]) {
      expect(isRetryableFault(err, true)).toBe(false);
    }
  });
});

describe('abortableSleep', () => {
  it('sleeps the given time', async () => {
    const t = Date.now();
    await abortableSleep(60);
    expect(Date.now() - t).toBeGreaterThanOrEqual(55);
  });

  it('stops at once with AbortedError when the signal fires', async () => {
    const c = new AbortController();
    const t = Date.now();
    setTimeout(() => c.abort(), 20);
    await expect(abortableSleep(5000, c.signal)).rejects.toMatchObject({ code: 'aborted' });
    expect(Date.now() - t).toBeLessThan(1000);
    await expect(abortableSleep(10, c.signal)).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('sleep', () => {
  it('rejects with the signal reason as soon as its signal aborts', async () => {
    const ac = new AbortController();
    const t0 = performance.now();
    const p = sleep(10_000, ac.signal);
    const why = new Error('paused');
    setTimeout(() => ac.abort(why), 20);
    await expect(p).rejects.toBe(why);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('clamps the exponent so a long run of retries keeps a finite ceiling', () => {
    expect(backoffDelayMs(5000, { baseMs: 100, capMs: 1000 }, () => 0.999)).toBe(999);
  });
});

describe('waits on one signal', () => {
  it('share one abort listener however many there are, and all end when it aborts', async () => {
    const controller = new AbortController();
    const waits = Array.from({ length: 40 }, () =>
      sleep(60_000, controller.signal).then(
        () => 'slept',
        (e: unknown) => (e instanceof Error ? e.name : 'other'),
      ),
    );
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort();
    expect(new Set(await Promise.all(waits))).toEqual(new Set(['AbortError']));
  });

  it('stop listening when they end on their own', async () => {
    const controller = new AbortController();
    let aborted = 0;
    const stop = whenAborted(controller.signal, () => (aborted += 1));
    await sleep(5, controller.signal);
    stop();
    controller.abort();
    expect(aborted).toBe(0);
  });
});
