// Whether the service can be reached, as the agent's calls find it: any answer means reachable,
// attempts without an answer mean unreachable (with what the network module understood), and a
// change of address starts from unknown. Each change is pushed once.
import { describe, expect, it } from 'vitest';
import type { ServiceReachView } from '@preload/contract';
import { ServiceReach } from '@main/core/agent/service/service-reach';

describe('service reach', () => {
  it('goes unreachable on calls without an answer, keeps its start, and comes back on any answer', () => {
    const pushed: ServiceReachView[] = [];
    let now = new Date('2026-03-02T10:00:00Z');
    const reach = new ServiceReach(
      (v) => pushed.push(v),
      () => now,
    );
    reach.reset('api.example.cl');
    const net = { kind: 'unreachable' as const, code: 'ECONNREFUSED', host: 'api.example.cl', proxy: null };
    reach.observe({ type: 'unreached', method: 'GET', path: 'me', code: 'network_error', net });
    now = new Date('2026-03-02T10:05:00Z');
    reach.observe({ type: 'unreached', method: 'GET', path: 'me', code: 'network_error', net });
    expect(reach.current).toEqual({
      state: 'unreachable',
      since: '2026-03-02T10:00:00.000Z',
      host: 'api.example.cl',
      problem: 'unreachable',
    });
    reach.observe({ type: 'unreached', method: 'GET', path: 'me', code: 'timeout', net: null });
    expect(reach.current.problem).toBe('timeout');
    expect(reach.current.since).toBe('2026-03-02T10:00:00.000Z');
    // A 500 is still an answer: the service is there.
    reach.observe({ type: 'answered', method: 'GET', path: 'me', status: 500 });
    expect(reach.current).toMatchObject({ state: 'reachable', problem: null, since: '2026-03-02T10:05:00.000Z' });
    expect(pushed.map((v) => v.state)).toEqual(['unknown', 'unreachable', 'unreachable', 'reachable']);
    reach.observe({ type: 'attempt', method: 'GET', path: 'me', attempt: 1, at: now });
    expect(pushed).toHaveLength(4);
    reach.reset('other.example.cl');
    expect(reach.current).toEqual({ state: 'unknown', since: null, host: 'other.example.cl', problem: null });
  });
});
