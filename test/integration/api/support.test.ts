import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../main/core/api/client';
import type { TicketCategory } from '../../../main/core/api/support';
import { EmulatorProcess } from '../../support/emulator';
import { clientFor } from './helpers';

describe('client: support tickets against the emulator', () => {
  let emu: EmulatorProcess;
  let client: ApiClient;
  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    client = clientFor(emu, 'pro').client;
  });
  afterAll(async () => {
    await emu.dispose();
  });

  it('opens tickets, lists them newest first and reads replies in order', async () => {
    const a = await client.support.create({ subject: 'No sube el examen', message: 'Se queda en 40 %', category: 'bug' });
    const b = await client.support.create({ subject: 'Factura', message: '¿Dónde descargo la factura?', category: 'billing' });
    expect(a.id).toMatch(/^tkt_/);
    expect(a.test_mode ?? false).toBe(false);
    const list = await client.support.list({ limit: 10 });
    expect(list.tickets.map((t) => t.id).slice(0, 2)).toEqual([b.id, a.id]);
    expect((await client.support.list({ limit: 1 })).tickets).toHaveLength(1);
    await emu.control('POST', `/tickets/${a.id}/replies`, { body: 'Estamos revisando.' });
    await emu.control('POST', `/tickets/${a.id}/replies`, { body: 'Resuelto.' });
    const detail = await client.support.get(a.id);
    expect(detail.ticket.id).toBe(a.id);
    expect(detail.replies.map((r) => r.body)).toEqual(['Estamos revisando.', 'Resuelto.']);
  });

  it('a live ticket e-mails support and the requester', async () => {
    await client.support.create({ subject: 'Visor', message: 'No carga el visor' });
    const mail = await emu.control<{ mail: unknown[] }>('GET', '/mail');
    expect(mail.mail.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses an unknown category and reads 404 for an unknown ticket', async () => {
    await expect(client.support.create({ subject: 's', message: 'm', category: 'urgent' as TicketCategory })).rejects.toMatchObject({ code: 'validation_error' });
    await expect(client.support.get('tkt_nope')).rejects.toMatchObject({ code: 'not_found' });
  });
});
