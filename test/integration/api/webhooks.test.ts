import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '@main/core/api/client';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { clientFor, must } from '../../support/harness/api-clients';

describe('client: webhook subscriptions against the emulator', () => {
  let emu: EmulatorProcess;
  let client: ApiClient;
  let receiver: Server;
  let hookUrl = '';
  const received: { headers: IncomingHttpHeaders; body: Buffer }[] = [];

  beforeAll(async () => {
    emu = await EmulatorProcess.start({ insecureWebhooks: true });
    client = clientFor(emu, 'pro').client;
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await emu.dispose();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('creates a subscription whose secret is shown once, lists, reads and updates it', async () => {
    const created = await client.webhooks.create({
      url: hookUrl,
      events: ['exam.confirmed', 'test.ping'],
      description: 'PACS de la clínica',
    });
    expect(created.id).toMatch(/^wh_/);
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.enabled).toBe(true);
    const list = await client.webhooks.list();
    const listed = list.webhooks.find((w) => w.id === created.id);
    expect(listed?.secret ?? undefined).toBeUndefined();
    expect(created.secret.startsWith(listed?.secret_prefix ?? '-')).toBe(true);
    const one = await client.webhooks.get(created.id);
    expect(one.events).toEqual(['exam.confirmed', 'test.ping']);
    const off = await client.webhooks.update(created.id, { enabled: false, description: 'Pausado' });
    expect(off.enabled).toBe(false);
    expect(off.description).toBe('Pausado');
    expect((await client.webhooks.update(created.id, { enabled: true })).enabled).toBe(true);
  });

  it('sends a signed test.ping and records the delivery', async () => {
    const created = await client.webhooks.create({ url: hookUrl, events: ['test.ping'] });
    const before = received.length;
    const result = await client.webhooks.test(created.id);
    expect(result.delivered).toBe(true);
    const got = received.slice(before);
    expect(got).toHaveLength(1);
    const { headers, body } = must(got[0]);
    expect(headers['x-service-event']).toBe('test.ping');
    const expected = Buffer.from(`sha256=${createHmac('sha256', created.secret).update(body).digest('base64')}`);
    const actual = Buffer.from(String(headers['x-service-signature']));
    expect(actual.length === expected.length && timingSafeEqual(actual, expected)).toBe(true);
    const log = await client.webhooks.deliveries(created.id);
    expect(log.deliveries[0]).toMatchObject({ event_type: 'test.ping', status: 'succeeded', response_status: 200 });
    expect(log.deliveries[0]?.id).toMatch(/^dlv_/);
  });

  it('deletes a subscription for good', async () => {
    const created = await client.webhooks.create({ url: hookUrl, events: ['exam.created'] });
    expect((await client.webhooks.remove(created.id)).deleted).toBe(true);
    await expect(client.webhooks.get(created.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses a non-HTTPS URL or an empty event list with ValidationError', async () => {
    await expect(client.webhooks.create({ url: 'ftp://example.org/h', events: ['test.ping'] })).rejects.toMatchObject({
      code: 'validation_error',
    });
    await expect(client.webhooks.create({ url: hookUrl, events: [] })).rejects.toMatchObject({
      code: 'validation_error',
    });
  });
});
