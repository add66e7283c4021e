import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';

const header = (h: Headers, name: string): number => Number(h.get(name));

/**
 * Buckets are per key (§8.1): the Pro live key (1000/h), the same account's sandbox key (its own
 * 1000/h) and its readonly key are counted apart. --time-scale 0.01 makes the hour 36 s, long enough
 * to spend 1000 requests inside one window on a loaded machine.
 */
describe('emulator: rate-limit buckets per key (§5.5, §8.1)', () => {
  let emu: EmulatorProcess;

  /** Sends `n` GET /me with `key`, `parallel` at a time; returns the status counts and the last answer's headers. */
  async function burst(
    key: string,
    n: number,
    parallel = 16,
  ): Promise<{ ok: number; limited: number; minRemaining: number }> {
    let ok = 0;
    let limited = 0;
    let minRemaining = Infinity;
    let next = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < n) {
          next++;
          const r = await api(emu.info, key, 'GET', '/me');
          if (r.status === 200) ok++;
          else if (r.status === 429) limited++;
          minRemaining = Math.min(minRemaining, header(r.headers, 'X-RateLimit-Remaining'));
        }
      }),
    );
    return { ok, limited, minRemaining };
  }

  beforeAll(async () => {
    emu = await EmulatorProcess.start({ timeScale: 0.01 });
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('exhausting the Pro live key (1000) leaves the sandbox and readonly keys of the same account untouched', async () => {
    const pro = await burst(emu.info.keys.pro, 1010);
    expect(pro).toEqual({ ok: 1000, limited: 10, minRemaining: 0 });
    const refused = await api(emu.info, emu.info.keys.pro, 'GET', '/me');
    expect(refused.status).toBe(429);
    expect(header(refused.headers, 'X-RateLimit-Limit')).toBe(1000);

    const sb = await api(emu.info, emu.info.keys.sandbox, 'GET', '/me');
    expect(sb.status).toBe(200);
    expect(header(sb.headers, 'X-RateLimit-Limit')).toBe(1000);
    expect(header(sb.headers, 'X-RateLimit-Remaining')).toBe(999);
    const ro = await api(emu.info, emu.info.keys.readonly, 'GET', '/me');
    expect(ro.status).toBe(200);
    expect(header(ro.headers, 'X-RateLimit-Remaining')).toBe(999);
  });

  it('the sandbox bucket holds 1000 regardless of plan and refuses the 1001st with 429', async () => {
    const sb = await burst(emu.info.keys.sandbox, 1000);
    // One was spent in the previous test.
    expect(sb).toEqual({ ok: 999, limited: 1, minRemaining: 0 });
    const r = await api(emu.info, emu.info.keys.sandbox, 'GET', '/me');
    expect(r.status).toBe(429);
    expect(r.json.error?.code).toBe('rate_limited');
    expect(header(r.headers, 'Retry-After')).toBeGreaterThanOrEqual(1);
    expect((r.json.error?.['retry_after_seconds'] as number) >= 1).toBe(true);
    // Another plan's live key is unaffected by both.
    expect((await api(emu.info, emu.info.keys.clinica, 'GET', '/me')).status).toBe(200);
    expect(header((await api(emu.info, emu.info.keys.ultra, 'GET', '/me')).headers, 'X-RateLimit-Limit')).toBe(10000);
  });

  it('GET /me reports the bucket of the calling key in rate_limit', async () => {
    await emu.control('POST', '/clock', { advance_seconds: 3600 });
    const r = await api(emu.info, emu.info.keys.sandbox, 'GET', '/me');
    expect(r.status).toBe(200);
    expect(r.json['rate_limit']).toEqual({
      limit: 1000,
      remaining: 999,
      reset: header(r.headers, 'X-RateLimit-Reset'),
    });
  });
});
