// The service connector points the one connection at the active key and address: the same pair
// keeps its client, another key or address is another account (its notifications dropped), and
// the queue is nudged every time, since a job may be waiting for a key.
import { describe, expect, it } from 'vitest';
import { ServiceConnection } from '@main/core/agent/service/service-connection';
import { serviceConnector, servicePorts } from '@main/core/agent/service-ports';

type Saved = { url: string; key: string | null };

describe('the service connector', () => {
  it('rebuilds the client only when the key or the address changes', () => {
    const service = new ServiceConnection('0.0.0-test', () => undefined);
    let saved: Saved = { url: 'http://127.0.0.1:9/v1', key: 'cbct_live_0123456789abcdef' };
    let accountChanges = 0;
    let kicks = 0;
    const connect = serviceConnector<Saved>({
      service,
      view: { apiUrl: (s) => s.url, activeKey: (s) => s.key },
      settings: () => saved,
      onAccountChange: () => accountChanges++,
      kick: () => kicks++,
    });
    try {
      connect();
      const first = service.client;
      expect(first).not.toBeNull();
      connect();
      expect(service.client).toBe(first);
      expect([accountChanges, kicks]).toEqual([1, 2]);

      saved = { ...saved, key: 'cbct_test_0123456789abcdef' };
      connect();
      expect(service.client).not.toBe(first);
      connect({ url: '', key: saved.key });
      expect(service.client).toBeNull();
      expect([accountChanges, kicks]).toEqual([3, 4]);
    } finally {
      service.close();
    }
  });

  it('gives the queue one engine port per client, and none without a key', () => {
    const service = new ServiceConnection('0.0.0-test', () => undefined);
    try {
      const ports = servicePorts(service);
      expect(ports.port()).toBeNull();
      service.configure('http://127.0.0.1:9/v1', 'cbct_live_0123456789abcdef');
      const port = ports.port();
      expect(port).not.toBeNull();
      expect(ports.port()).toBe(port);
      service.configure('http://127.0.0.1:9/v1', 'cbct_test_0123456789abcdef');
      expect(ports.port()).not.toBe(port);
    } finally {
      service.close();
    }
  });
});
