// --time-scale 0.001 (CONTRACTS.md §1): the 1-hour rate window lasts 3.6 s and the webhook retry schedule
// runs a thousand times faster, in real time, without touching the clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess, type EmulatorInfo } from '../../support/emulator/emulator';
import {
  burst,
  createExam,
  expectError,
  expectOk,
  files,
  getBytes,
  put,
  readyExam,
  Receiver,
  sleep,
  waitFor,
} from '../../support/emulator/conformance-client';

let emu: EmulatorProcess;
let info: EmulatorInfo;
let rx: Receiver;

beforeAll(async () => {
  emu = await EmulatorProcess.start({ timeScale: 0.001, insecureWebhooks: true });
  info = emu.info;
  rx = await Receiver.start();
});
afterAll(async () => {
  await emu.dispose();
  await rx.close();
});

let early: { url: string; createdAt: number; expiresAt: number };

describe('scaled rate-limit window', () => {
  beforeAll(async () => {
    const { urls, json } = await createExam(info, info.keys.pro, files(1, 'ttl', 8), { name: 'Unscaled TTL' });
    early = {
      url: urls[0]?.url ?? '',
      createdAt: Date.parse(String(json.created_at)),
      expiresAt: Date.parse(urls[0]?.expires_at ?? ''),
    };
  });

  it('Free: 100 calls, then 429, then free again after about 3.6 s of real time', async () => {
    const free = info.keys.free;
    const started = Date.now();
    const statuses = await burst(100, async () => (await api(info, free, 'GET', '/me')).status, 10);
    const over = await api(info, free, 'GET', '/me');
    const elapsed = Date.now() - started;
    // Only meaningful if the burst fitted in the scaled window.
    expect(elapsed).toBeLessThan(3300);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expectError(over, 429, 'rate_limited');
    expect(over.headers.get('x-ratelimit-limit')).toBe('100');
    await sleep(Math.max(0, started + 4200 - Date.now()));
    expectOk(await api(info, free, 'GET', '/me'), 200);
  });
});

describe('scaled webhook retry schedule', () => {
  it('retries at +30 s, +2 min and +10 min arrive within about a second of real time', async () => {
    rx.answer('/fail', 500);
    const res = await api(info, info.keys.pro, 'POST', '/webhooks', {
      url: `${rx.base}/fail`,
      events: ['exam.created'],
      description: 'scaled',
    });
    expectOk(res);
    const started = Date.now();
    await createExam(info, info.keys.pro, files(1), { name: 'Scaled retry' });
    await waitFor(() => (rx.at('/fail').length >= 4 ? true : undefined), 3000, 'four attempts within 3 s');
    const attempts = rx.at('/fail');
    const first = attempts[0]?.at ?? started;
    // +30 s scaled is 30 ms: the second attempt cannot come before it.
    expect((attempts[1]?.at ?? 0) - first).toBeGreaterThanOrEqual(25);
    // +6 h scaled is 21.6 s: not reached yet.
    expect(rx.at('/fail').length).toBeLessThan(6);
  });
});

describe('what time-scale leaves alone', () => {
  it('--url-ttl is not scaled: URLs still live 3600 s and one made seconds ago still uploads', async () => {
    expect((early.expiresAt - early.createdAt) / 1000).toBeGreaterThan(3590);
    expect((early.expiresAt - early.createdAt) / 1000).toBeLessThanOrEqual(3610);
    expect((await put(early.url, Buffer.alloc(8, 0))).status).toBeLessThan(300);
  });

  it('the 10 s delivery time-out is not scaled: a 2xx after 300 ms is a success', async () => {
    rx.answer('/slowish', 200, 300);
    const res = await api(info, info.keys.pro, 'POST', '/webhooks', {
      url: `${rx.base}/slowish`,
      events: ['exam.deleted'],
      description: 'slowish',
    });
    expectOk(res);
    const { id } = await createExam(info, info.keys.pro, files(1), { name: 'Slowish' });
    expectOk(await api(info, info.keys.pro, 'DELETE', `/exams/${id}`), 200);
    await waitFor(() => rx.at('/slowish')[0], 3000, 'first attempt');
    await sleep(1500); // +30 s, +2 min and +10 min scaled have all passed
    expect(rx.at('/slowish')).toHaveLength(1);
  });
});

describe('scaled thumbnail delay', () => {
  it('a ready exam gets its thumbnail on its own within seconds', async () => {
    const id = await readyExam(info, info.keys.pro, { name: 'Scaled thumb' });
    await waitFor(
      async () =>
        (await getBytes(`${info.base_url}/exams/${id}/thumbnail`, info.keys.pro)).status === 200 ? true : undefined,
      8000,
      'thumbnail',
    );
  });
});
