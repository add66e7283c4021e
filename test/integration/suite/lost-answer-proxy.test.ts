// The lost-answer proxy itself: a lost answer still reaches the service once, and the client hears
// nothing but a cut connection; other requests pass through untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/emulator/emulator';
import { emulatorScene } from '../../support/emulator/emulator-scene';
import { LostAnswerProxy } from '../../support/network/lost-answer-proxy';

const scene = emulatorScene();
let proxy: LostAnswerProxy;
beforeAll(async () => {
  proxy = await LostAnswerProxy.start(scene.emulator.info.base_url);
});
afterAll(async () => {
  await proxy.stop();
});

describe('lost-answer proxy', () => {
  it('lets the request reach the service, then cuts the connection instead of answering', async () => {
    const { keys } = scene.emulator.info;
    proxy.loseNext({ method: 'POST', path: /\/referrers$/ });
    const sent = fetch(`${proxy.baseUrl}/referrers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${keys.pro}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Dra. Perdida' }),
    });
    await expect(sent).rejects.toThrow();
    expect(proxy.lost).toEqual([{ method: 'POST', path: '/api/v1/referrers', status: 201 }]);
    const list = await api({ ...scene.emulator.info, base_url: proxy.baseUrl }, keys.pro, 'GET', '/referrers');
    expect(list.status).toBe(200);
    const names = (list.json['referrers'] as { name: string }[]).map((r) => r.name);
    expect(names.filter((n) => n === 'Dra. Perdida')).toHaveLength(1);
  });

  it('passes answers on when no rule matches', async () => {
    const me = await api(
      { ...scene.emulator.info, base_url: proxy.baseUrl },
      scene.emulator.info.keys.pro,
      'GET',
      '/me',
    );
    expect(me.status).toBe(200);
    expect(me.json['plan']).toBe('pro');
  });
});
