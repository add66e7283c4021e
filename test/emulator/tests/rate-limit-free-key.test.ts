import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const header = (h: Headers, name: string): number => Number(h.get(name));

/**
 * The Free plan's 100 requests per rolling hour, with --time-scale 0.001 so the hour lasts 3.6 s of
 * real time. Timing margins are generous (≥ 1 s) because the machine may be loaded.
 */
describe('emulator: rate limit of a Free key (§7, §8.1)', () => {
  let emu: EmulatorProcess;
  const me = () => api(emu.info, emu.info.keys.free, 'GET', '/me');

  beforeAll(async () => {
    emu = await EmulatorProcess.start({ timeScale: 0.001 });
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('counts a rolling window: the 101st request gets 429, only requests older than the window free their slots', async () => {
    const t0 = Date.now();
    let last = await me();
    expect(header(last.headers, 'X-RateLimit-Limit')).toBe(100);
    expect(header(last.headers, 'X-RateLimit-Remaining')).toBe(99);
    const resetFirst = header(last.headers, 'X-RateLimit-Reset');
    // The reset is when the oldest counted request leaves the window: about 3.6 s from now, in Unix seconds.
    expect(resetFirst * 1000).toBeGreaterThanOrEqual(t0 + 3600 - 1000);
    expect(resetFirst * 1000).toBeLessThanOrEqual(Date.now() + 3600 + 1000);
    for (let i = 0; i < 59; i++) last = await me();
    expect(last.status).toBe(200);
    expect(header(last.headers, 'X-RateLimit-Remaining')).toBe(40);
    const firstBatchEnd = Date.now();

    // A second batch of 40 about 1.8 s later fills the window.
    await sleep(Math.max(0, t0 + 1800 - Date.now()));
    const t1 = Date.now();
    for (let i = 0; i < 40; i++) last = await me();
    expect(last.status).toBe(200);
    expect(header(last.headers, 'X-RateLimit-Remaining')).toBe(0);
    expect(header(last.headers, 'X-RateLimit-Reset')).toBe(resetFirst);

    const refused = await me();
    expect(refused.status).toBe(429);
    expect(refused.json.error?.code).toBe('rate_limited');
    expect(typeof refused.json.error?.message).toBe('string');
    const retry = refused.json.error?.['retry_after_seconds'] as number;
    expect(Number.isInteger(retry)).toBe(true);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(4);
    expect(header(refused.headers, 'Retry-After')).toBe(retry);
    expect(header(refused.headers, 'X-RateLimit-Limit')).toBe(100);
    expect(header(refused.headers, 'X-RateLimit-Remaining')).toBe(0);
    expect(header(refused.headers, 'X-RateLimit-Reset')).toBe(resetFirst);
    // Refused requests are not counted: hammering now must not push the window further.
    for (let i = 0; i < 20; i++) expect((await me()).status).toBe(429);
    expect(Date.now() - t1).toBeLessThan(2000);

    // Once the first batch (t0) has left the window, its 60 slots are free again; the second batch (t1) is still counted.
    await sleep(Math.max(0, firstBatchEnd + 3600 + 150 - Date.now()));
    expect(Date.now()).toBeLessThan(t1 + 3600);
    const back = await me();
    expect(back.status).toBe(200);
    expect(header(back.headers, 'X-RateLimit-Remaining')).toBe(59);
    const rest = await Promise.all(Array.from({ length: 59 }, () => me()));
    expect(rest.map((r) => r.status)).toEqual(Array(59).fill(200));
    const full = await me();
    expect(Date.now()).toBeLessThan(t1 + 3600);
    expect(full.status).toBe(429);
  });

  it('after POST /__emulator/clock advances a full hour, requests succeed again', async () => {
    expect((await me()).status).toBe(429);
    await emu.control('POST', '/clock', { advance_seconds: 3600 });
    const r = await me();
    expect(r.status).toBe(200);
    expect(header(r.headers, 'X-RateLimit-Remaining')).toBe(99);
  });

  it('401s are not counted and carry no rate headers; every authenticated answer, errors included, carries them', async () => {
    const bad = await api(emu.info, 'cbct_live_00000000000000000000000000000000', 'GET', '/me');
    expect(bad.status).toBe(401);
    expect(bad.headers.get('X-RateLimit-Limit')).toBeNull();
    const before = header((await me()).headers, 'X-RateLimit-Remaining');
    const notFound = await api(emu.info, emu.info.keys.free, 'GET', '/referrers/rfr_nope');
    expect(notFound.status).toBe(404);
    expect(header(notFound.headers, 'X-RateLimit-Remaining')).toBe(before - 1);
    expect(header(notFound.headers, 'X-RateLimit-Limit')).toBe(100);
    const invalid = await api(emu.info, emu.info.keys.free, 'POST', '/referrers', { name: '' });
    expect(invalid.status).toBe(400);
    expect(header(invalid.headers, 'X-RateLimit-Remaining')).toBe(before - 2);
  });

  it('control API and public routes never move X-RateLimit-Remaining', async () => {
    const before = header((await me()).headers, 'X-RateLimit-Remaining');
    for (let i = 0; i < 5; i++) {
      await emu.control('GET', '/clock');
      await fetch(`${emu.info.control_url}/mail`);
      await fetch(new URL('/storage/exm_nope/a.dcm?expires=1&sig=00', emu.info.base_url), { method: 'PUT', body: 'x' });
      await fetch(new URL('/p/radiologica-nunoa?pin=000000', emu.info.base_url));
    }
    const after = header((await me()).headers, 'X-RateLimit-Remaining');
    expect(after).toBe(before - 1);
  });
});
