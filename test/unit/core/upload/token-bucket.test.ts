import { describe, expect, it } from 'vitest';
import { TokenBucket } from '@main/core/upload/transfer/token-bucket';

describe('bandwidth token bucket', () => {
  it('paces takes to the configured rate, shared across callers', async () => {
    const bucket = new TokenBucket(1_000_000, 0.01);
    const t0 = performance.now();
    // Two "transfers" of 200 kB each in 20 kB chunks: 400 kB at 1 MB/s ≈ 400 ms together.
    const lane = async (): Promise<void> => {
      for (let i = 0; i < 10; i++) await bucket.take(20_000);
    };
    await Promise.all([lane(), lane()]);
    const ms = performance.now() - t0;
    expect(ms).toBeGreaterThan(330);
    expect(ms).toBeLessThan(1500);
  });

  it('does not wait at all without a limit, and applies a new limit at once', async () => {
    const bucket = new TokenBucket(null);
    const t0 = performance.now();
    for (let i = 0; i < 1000; i++) await bucket.take(1_000_000);
    expect(performance.now() - t0).toBeLessThan(100);
    bucket.setRate(100_000);
    const t1 = performance.now();
    await bucket.take(20_000);
    await bucket.take(20_000);
    expect(performance.now() - t1).toBeGreaterThan(250);
  });

  it('stops waiting when aborted', async () => {
    const bucket = new TokenBucket(1000);
    const ac = new AbortController();
    const p = bucket.take(1_000_000, ac.signal);
    ac.abort();
    await expect(p).rejects.toThrow();
  });
});
