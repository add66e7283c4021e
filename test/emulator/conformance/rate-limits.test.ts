// Rate limits on the service clock (API-v1.md §7 429 answer, §8.1; CONTRACTS.md: presigned PUTs do not
// count, POST /clock carries out rate-limit windows).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess, type EmulatorInfo } from '../../support/emulator/emulator';
import {
  type ApiResult,
  burst,
  createExam,
  expectError,
  expectOk,
  files,
  put,
} from '../../support/emulator/conformance-client';

let emu: EmulatorProcess;
let info: EmulatorInfo;

beforeAll(async () => {
  emu = await EmulatorProcess.start();
  info = emu.info;
});
afterAll(async () => {
  await emu.dispose();
});

function expect429(res: ApiResult, limit: number): { retryAfter: number; reset: number } {
  expectError(res, 429, 'rate_limited');
  const retryAfterBody = res.json.error?.['retry_after_seconds'];
  expect(typeof retryAfterBody).toBe('number');
  const retryAfter = Number(res.headers.get('retry-after'));
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  expect(res.headers.get('x-ratelimit-limit')).toBe(String(limit));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(3600);
  expect(Math.abs(Number(retryAfterBody) - retryAfter)).toBeLessThanOrEqual(1);
  expect(Number.isInteger(reset)).toBe(true);
  return { retryAfter, reset };
}

describe('Free plan: 100 requests per hour per key', () => {
  const specs = files(6, 'rl', 8);
  let urls: string[] = [];
  let hit: { retryAfter: number; reset: number };

  it('the 101st call in the hour → 429 rate_limited with Retry-After, X-RateLimit-Limit and X-RateLimit-Reset; presigned PUTs are not counted', async () => {
    const free = info.keys.free;
    const exam = await createExam(info, free, specs, { name: 'Rate limit' });
    urls = exam.urls.map((u) => u.url);
    for (let i = 0; i < 5; i++)
      expect((await put(urls[i] ?? '', specs[i]?.bytes ?? new Uint8Array())).status).toBeLessThan(300);
    const statuses = await burst(99, async () => (await api(info, free, 'GET', '/me')).status);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const over = await api(info, free, 'GET', '/exams');
    const now = Math.floor(Date.now() / 1000);
    hit = expect429(over, 100);
    expect(Math.abs(hit.reset - (now + hit.retryAfter))).toBeLessThanOrEqual(5);
    expectError(
      await api(info, free, 'POST', '/exams', { name: 'x', files: [{ name: 'a', size: 1 }] }),
      429,
      'rate_limited',
    );
  });

  it('a presigned PUT still works while the key is limited', async () => {
    expect((await put(urls[5] ?? '', specs[5]?.bytes ?? new Uint8Array())).status).toBeLessThan(300);
  });

  it('the limit is per key: other keys, even of the same plan family, are not affected', async () => {
    expectOk(await api(info, info.keys.pro, 'GET', '/me'), 200);
    expectOk(await api(info, info.keys.clinica, 'GET', '/me'), 200);
  });

  it('the rolling window frees the key once Retry-After has passed on the service clock', async () => {
    await emu.control('POST', '/clock', { advance_seconds: Math.max(0, hit.retryAfter - 30) });
    expectError(await api(info, info.keys.free, 'GET', '/me'), 429, 'rate_limited');
    await emu.control('POST', '/clock', { advance_seconds: 31 });
    expectOk(await api(info, info.keys.free, 'GET', '/me'), 200);
    await emu.control('POST', '/clock', { advance_seconds: 3600 });
    const statuses = await burst(50, async () => (await api(info, info.keys.free, 'GET', '/me')).status);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });
});

describe('sandbox keys: a separate bucket of 1000 per hour', () => {
  it('the sandbox key gets its own 1000 regardless of what the live key of the account used', async () => {
    const pro = info.keys.pro;
    const used = await burst(20, async () => (await api(info, pro, 'GET', '/me')).status);
    expect(used.filter((s) => s !== 200)).toEqual([]);
    const statuses = await burst(1000, async () => (await api(info, info.keys.sandbox, 'GET', '/me')).status, 16);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect429(await api(info, info.keys.sandbox, 'GET', '/me'), 1000);
    expectOk(await api(info, pro, 'GET', '/me'), 200);
  });
});

describe('the window is rolling', () => {
  it('calls leave the window one hour after they were made, not at a fixed reset', async () => {
    const free = info.keys.free;
    await emu.control('POST', '/clock', { advance_seconds: 2 * 3600 });
    const first = await burst(50, async () => (await api(info, free, 'GET', '/me')).status);
    expect(first.filter((s) => s !== 200)).toEqual([]);
    await emu.control('POST', '/clock', { advance_seconds: 1800 });
    const second = await burst(50, async () => (await api(info, free, 'GET', '/me')).status);
    expect(second.filter((s) => s !== 200)).toEqual([]);
    const hit = expect429(await api(info, free, 'GET', '/me'), 100);
    expect(hit.retryAfter).toBeLessThanOrEqual(1800 + 5);
    expect(hit.retryAfter).toBeGreaterThan(1800 - 60);
    await emu.control('POST', '/clock', { advance_seconds: 1801 });
    const third = await burst(50, async () => (await api(info, free, 'GET', '/me')).status);
    expect(third.filter((s) => s !== 200)).toEqual([]);
    expect429(await api(info, free, 'GET', '/me'), 100);
  });
});
