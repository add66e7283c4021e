import { describe, expect, it } from 'vitest';
import { backoffDelay, sleep } from '../../../../main/core/upload/backoff';

describe('retry backoff', () => {
  it('draws full-jitter delays under an exponential ceiling capped at capMs', () => {
    const policy = { baseMs: 100, capMs: 1000 };
    expect(backoffDelay(0, policy, () => 0.999)).toBe(99);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(400);
    expect(backoffDelay(10, policy, () => 0.999)).toBe(999);
    expect(backoffDelay(2, policy, () => 0)).toBe(0);
  });

  it('sleep rejects as soon as its signal aborts', async () => {
    const ac = new AbortController();
    const t0 = performance.now();
    const p = sleep(10_000, ac.signal);
    setTimeout(() => ac.abort(), 20);
    await expect(p).rejects.toThrow();
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});
