// New notifications of the account become OS notifications (through the host's notifier port);
// what was already there at start-up does not, and mark-read updates the list without a refetch.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationsState } from '@preload/contract';
import type { Notice } from '@main/core/agent';
import { startAgent } from '@main/core/agent';
import { MemorySecretStore } from '@main/core/secrets';
import { api, EmulatorProcess } from '../../support/emulator/emulator';

let emulator: EmulatorProcess;
let scratch: string;

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  scratch = mkdtempSync(join(tmpdir(), 'sb-ntf-'));
});
afterAll(async () => {
  await emulator?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

describe('notifications in the agent', () => {
  it('raises an OS notification for each new unread one, not for those already there', async () => {
    const key = emulator.info.keys.clinica;
    const ticket = await api(emulator.info, key, 'POST', '/support/tickets', {
      subject: 'Informe',
      message: '¿Cuándo?',
    });
    const id = String(ticket.json['id']);
    await emulator.control('POST', `/tickets/${id}/replies`, { body: 'Ya estaba antes.' });
    const notices: Notice[] = [];
    const agent = await startAgent({
      dataDir: join(scratch, 'data'),
      configDir: join(scratch, 'config'),
      env: { SCANBRIDGE_API_URL: emulator.info.base_url, SCANBRIDGE_API_KEY: key },
      secretStore: new MemorySecretStore(),
      transport: 'http',
      systemLanguage: 'es',
      notifier: { notify: (n) => notices.push(n) },
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    try {
      const call = (name: 'notifications:list' | 'notifications:mark-read', args: object) =>
        agent.host.call(name, args) as Promise<NotificationsState>;
      const first = await call('notifications:list', { refresh: true });
      expect(first.unread_count).toBe(1);
      expect(notices).toEqual([]);

      await emulator.control('POST', `/tickets/${id}/replies`, { body: 'Su informe está listo.' });
      const second = await call('notifications:list', { refresh: true });
      expect(second.unread_count).toBe(2);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({ kind: 'service_notification', body: 'Su informe está listo.' });
      expect(notices[0]?.title).toContain('Informe');

      // The same list again is not news.
      await call('notifications:list', { refresh: true });
      expect(notices).toHaveLength(1);

      const newest = second.notifications[0];
      if (!newest) throw new Error('no notification');
      const after = await call('notifications:mark-read', { id: newest.id });
      expect(after.unread_count).toBe(1);
      expect(after.notifications.find((n) => n.id === newest.id)?.read).toBe(true);
      const onService = await api(emulator.info, key, 'GET', '/notifications');
      expect(onService.json['unread_count']).toBe(1);
    } finally {
      await agent.stop();
    }
  });
});
