// The API client after a lost answer: a call that is not safe to repeat is sent once and its outcome
// is unknown (the contract says `maybe_done`); a call safe to repeat is retried; a request that never
// left this computer is a plain network error (trying again is safe).
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '@main/core/api/http/api-errors';
import { toContractError } from '@main/core/agent/host/contract-host';
import { api } from '../../support/emulator/emulator';
import { emulatorScene } from '../../support/emulator/emulator-scene';
import { LostAnswerProxy } from '../../support/network/lost-answer-proxy';
import { attempts, clientFor } from '../../support/harness/api-clients';

const scene = emulatorScene();
let proxy: LostAnswerProxy;
beforeAll(async () => {
  proxy = await LostAnswerProxy.start(scene.emulator.info.base_url);
});
afterAll(async () => {
  await proxy.stop();
});
afterEach(async () => {
  proxy.clearRules();
  await scene.emulator.control('DELETE', '/faults');
});

const viaProxy = (options: Parameters<typeof clientFor>[2] = {}) =>
  clientFor(
    { ...scene.emulator, info: { ...scene.emulator.info, base_url: proxy.baseUrl } } as typeof scene.emulator,
    'pro',
    options,
  );

describe('API client: a lost answer', () => {
  it('sends a call that is not safe to repeat once, and says its outcome is unknown (maybe_done on the contract)', async () => {
    const { client, events } = viaProxy();
    proxy.loseNext({ method: 'POST', path: /\/referrers$/ });
    const err = await client.referrers.create({ name: 'Dra. Sin Respuesta' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'network_error', mayHaveReachedService: true, outcomeUnknown: true });
    expect(attempts(events, 'POST')).toBe(1);
    expect(toContractError(err)).toMatchObject({ code: 'maybe_done' });
    const list = (await api(scene.emulator.info, scene.emulator.info.keys.pro, 'GET', '/referrers')).json[
      'referrers'
    ] as { name: string }[];
    expect(list.filter((r) => r.name === 'Dra. Sin Respuesta')).toHaveLength(1);
  });

  it('retries a call that is safe to repeat, which then succeeds with nothing unknown', async () => {
    const { client, events } = viaProxy();
    proxy.loseNext({ method: 'GET', path: /\/me$/ });
    expect((await client.account.me()).plan).toBe('pro');
    expect(attempts(events, 'GET', 'me')).toBe(2);
  });

  it('treats a time-out of a call that is not safe to repeat as unknown too', async () => {
    await scene.emulator.control('POST', '/faults', {
      target: 'api',
      mode: 'stall',
      count: 1,
      match: 'POST /api/v1/referrers',
    });
    const { client, events } = clientFor(scene.emulator, 'pro', { timeouts: { write: 300 } });
    const err = await client.referrers.create({ name: 'Dr. Lento' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'timeout', outcomeUnknown: true });
    expect(attempts(events, 'POST')).toBe(1);
    expect(toContractError(err)).toMatchObject({ code: 'maybe_done' });
  });

  it('keeps "cannot reach the service" when the request never left this computer', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { client } = clientFor(
      {
        ...scene.emulator,
        info: { ...scene.emulator.info, base_url: `http://127.0.0.1:${port}/api/v1` },
      } as typeof scene.emulator,
      'pro',
    );
    const err = await client.referrers.create({ name: 'Dr. Nunca' }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'network_error',
      networkCode: 'ECONNREFUSED',
      mayHaveReachedService: false,
      outcomeUnknown: false,
    });
    // The window's own code for a connection refused: "cannot reach", never "may have been done".
    expect(toContractError(err)).toMatchObject({ code: 'net_unreachable' });
  });
});
