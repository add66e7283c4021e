// The test-only control API of CONTRACTS.md §1: fault injection on storage and API requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess, type EmulatorInfo } from '../../support/emulator/emulator';
import { createExam, ErrorBody, expectOk, files, put } from '../../support/emulator/conformance-client';

let emu: EmulatorProcess;
let info: EmulatorInfo;

beforeAll(async () => {
  emu = await EmulatorProcess.start();
  info = emu.info;
});
afterAll(async () => {
  await emu.dispose();
});

const fault = (body: Record<string, unknown>) => emu.control('POST', '/faults', body);

async function uploadTarget(n: number) {
  const specs = files(n, 'fault', 64);
  const { urls } = await createExam(info, info.keys.pro, specs, { name: 'Faults' });
  return { url: (i: number) => urls[i]?.url ?? '', bytes: (i: number) => specs[i]?.bytes ?? new Uint8Array() };
}

describe('storage faults', () => {
  it('error500 fails the next `count` PUTs with 500, then uploads work again', async () => {
    const t = await uploadTarget(3);
    await fault({ target: 'storage', mode: 'error500', count: 2 });
    expect((await put(t.url(0), t.bytes(0))).status).toBe(500);
    expect((await put(t.url(1), t.bytes(1))).status).toBe(500);
    expect((await put(t.url(2), t.bytes(2))).status).toBeLessThan(300);
    expect((await put(t.url(0), t.bytes(0))).status).toBeLessThan(300);
  });

  it('expire answers like an expired URL (403) once', async () => {
    const t = await uploadTarget(1);
    await fault({ target: 'storage', mode: 'expire', count: 1 });
    expect((await put(t.url(0), t.bytes(0))).status).toBe(403);
    expect((await put(t.url(0), t.bytes(0))).status).toBeLessThan(300);
  });

  it('reset drops the connection once', async () => {
    const t = await uploadTarget(1);
    await fault({ target: 'storage', mode: 'reset', count: 1 });
    await expect(put(t.url(0), t.bytes(0))).rejects.toThrow();
    expect((await put(t.url(0), t.bytes(0))).status).toBeLessThan(300);
  });

  it('stall holds the request past a client time-out once', async () => {
    const t = await uploadTarget(1);
    await fault({ target: 'storage', mode: 'stall', count: 1 });
    await expect(
      fetch(t.url(0), { method: 'PUT', body: new Uint8Array(t.bytes(0)), signal: AbortSignal.timeout(800) }),
    ).rejects.toThrow();
    expect((await put(t.url(0), t.bytes(0))).status).toBeLessThan(300);
  });

  it('storage faults do not touch API calls', async () => {
    await fault({ target: 'storage', mode: 'error500', count: 1 });
    expectOk(await api(info, info.keys.pro, 'GET', '/me'), 200);
    const t = await uploadTarget(1);
    expect((await put(t.url(0), t.bytes(0))).status).toBe(500);
  });
});

describe('API faults', () => {
  it('error500 fails the next `count` API calls, with the error body when JSON', async () => {
    await fault({ target: 'api', mode: 'error500', count: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await api(info, info.keys.pro, 'GET', '/me');
      expect(res.status).toBe(500);
      if ((res.headers.get('content-type') ?? '').includes('json'))
        expect(ErrorBody.safeParse(res.json).success).toBe(true);
    }
    expectOk(await api(info, info.keys.pro, 'GET', '/me'), 200);
  });

  it('match limits a fault to the matching requests', async () => {
    await fault({ target: 'api', mode: 'error500', count: 1, match: '/referrers' });
    expectOk(await api(info, info.keys.pro, 'GET', '/me'), 200);
    expectOk(await api(info, info.keys.pro, 'GET', '/exams'), 200);
    expect((await api(info, info.keys.pro, 'GET', '/referrers')).status).toBe(500);
    expectOk(await api(info, info.keys.pro, 'GET', '/referrers'), 200);
  });

  it('reset and stall act on API calls once each', async () => {
    await fault({ target: 'api', mode: 'reset', count: 1 });
    await expect(api(info, info.keys.pro, 'GET', '/me')).rejects.toThrow();
    expectOk(await api(info, info.keys.pro, 'GET', '/me'), 200);
    await fault({ target: 'api', mode: 'stall', count: 1 });
    await expect(
      fetch(`${info.base_url}/me`, {
        headers: { Authorization: `Bearer ${info.keys.pro}` },
        signal: AbortSignal.timeout(800),
      }),
    ).rejects.toThrow();
    expectOk(await api(info, info.keys.pro, 'GET', '/me'), 200);
  });

  it('API faults do not touch presigned uploads', async () => {
    const t = await uploadTarget(1);
    await fault({ target: 'api', mode: 'error500', count: 1 });
    expect((await put(t.url(0), t.bytes(0))).status).toBeLessThan(300);
    expect((await api(info, info.keys.pro, 'GET', '/me')).status).toBe(500);
  });
});

describe('clock', () => {
  it('POST /clock answers and moves service time forward (timestamps of new records follow it)', async () => {
    const before = await createExam(info, info.keys.ultra, files(1), { name: 'Before jump' });
    await emu.control('POST', '/clock', { advance_seconds: 10 * 24 * 3600 });
    const after = await createExam(info, info.keys.ultra, files(1), { name: 'After jump' });
    const gap = (Date.parse(String(after.json.created_at)) - Date.parse(String(before.json.created_at))) / 1000;
    expect(gap).toBeGreaterThanOrEqual(10 * 24 * 3600);
    expect(gap).toBeLessThan(10 * 24 * 3600 + 60);
  });
});
