// An idle agent stays within its background budget for a simulated hour against the emulator
// (calls counted on the emulator's side by a proxy in front of it), and waits out a 429.
// Each run has its own emulator, agent and proxy and spends its time waiting for the simulated
// hour to pass, so the three run at the same time.
import { describe, it } from 'vitest';
import { exhaust, idleAgentRun } from '../../bench/poll-budget';

describe.concurrent('background polling budget', () => {
  it('an idle agent on the Free plan makes fewer than 10 calls in an hour, and only its three refreshes', async ({
    expect,
  }) => {
    const run = await idleAgentRun({ plan: 'free' });
    const hour = run.calls.filter((c) => c.at < run.hourMs);
    expect(hour.length).toBeGreaterThanOrEqual(3);
    expect(hour.length).toBeLessThan(10);
    expect(new Set(hour.map((c) => `${c.method} ${c.path}`))).toEqual(
      new Set(['GET /api/v1/notifications', 'GET /api/v1/me', 'GET /api/v1/activity']),
    );
    expect(hour.every((c) => c.status === 200)).toBe(true);
  });

  it('on the Pro plan refreshes more often, within 8 % of its limit', async ({ expect }) => {
    const run = await idleAgentRun({ plan: 'pro' });
    const hour = run.calls.filter((c) => c.at < run.hourMs);
    expect(hour.length).toBeGreaterThan(20);
    expect(hour.length).toBeLessThanOrEqual(80);
  });

  it('after a 429 sends nothing before Retry-After has passed', async ({ expect }) => {
    const run = await idleAgentRun({ plan: 'free', hours: 2, before: exhaust });
    const refused = run.calls.filter((c) => c.status === 429);
    expect(refused).toHaveLength(1);
    const first = refused[0];
    if (!first) throw new Error('no 429');
    const retryAfterMs = Number(first.retryAfter) * 1000;
    expect(retryAfterMs).toBeGreaterThan(0);
    const later = run.calls.filter((c) => c.at > first.at);
    expect(later.length).toBeGreaterThan(0);
    // The proxy stamps arrivals; allow a few ms of timer slack on the wall clock.
    for (const c of later) expect(c.at - first.at).toBeGreaterThanOrEqual(retryAfterMs - 20);
    expect(later.every((c) => c.status === 200)).toBe(true);
  });
});
