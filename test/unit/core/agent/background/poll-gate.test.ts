// The poll scheduler's gate reads the active key's rate meter: nothing known without a key, the
// meter's limit and remaining calls, a 429's wait, and the time until the window frees a slot.
import { describe, expect, it } from 'vitest';
import { meterGate } from '@main/core/agent/background/poll-gate';
import { RateMeter } from '@main/core/api/http/rate-meter';

describe('the poll gate', () => {
  it('knows nothing while there is no key', () => {
    expect(meterGate(() => undefined)()).toEqual({
      limit: null,
      remaining: null,
      blockedForWallMs: 0,
      resetInWallMs: null,
    });
  });

  it("reads the meter of the key in use: limit, remaining, the reset's distance (never negative) and a 429's wait", () => {
    const meter = new RateMeter();
    const now = Date.now();
    const reset = Math.floor(now / 1000) + 600;
    meter.updateFromHeaders({
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '7',
      'x-ratelimit-reset': String(reset),
    });
    const gate = meterGate(
      () => meter,
      () => now,
    );
    expect(gate()).toMatchObject({ limit: 100, remaining: 7, blockedForWallMs: 0, resetInWallMs: reset * 1000 - now });
    expect(
      meterGate(
        () => meter,
        () => reset * 1000 + 5000,
      )().resetInWallMs,
    ).toBe(0);

    meter.recordRateLimited(30);
    const blocked = gate();
    expect(blocked.remaining).toBe(0);
    expect(blocked.blockedForWallMs).toBeGreaterThan(25_000);
    expect(blocked.blockedForWallMs).toBeLessThanOrEqual(30_000);
  });
});
