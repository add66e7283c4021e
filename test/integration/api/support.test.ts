import { describe, expect, it } from 'vitest';
import type { TicketCategory } from '@preload/contract';
import { proClientScene } from '../../support/harness/api-clients';

describe('client: support tickets against the emulator', () => {
  const ctx = proClientScene();

  it('opens tickets, lists them newest first and reads replies in order', async () => {
    const a = await ctx.client.support.create({
      subject: 'No sube el examen',
      message: 'Se queda en 40 %',
      category: 'bug',
    });
    const b = await ctx.client.support.create({
      subject: 'Factura',
      message: '¿Dónde descargo la factura?',
      category: 'billing',
    });
    expect(a.id).toMatch(/^tkt_/);
    expect(a.test_mode ?? false).toBe(false);
    const list = await ctx.client.support.list({ limit: 10 });
    expect(list.tickets.map((t) => t.id).slice(0, 2)).toEqual([b.id, a.id]);
    expect((await ctx.client.support.list({ limit: 1 })).tickets).toHaveLength(1);
    await ctx.emulator.control('POST', `/tickets/${a.id}/replies`, { body: 'Estamos revisando.' });
    await ctx.emulator.control('POST', `/tickets/${a.id}/replies`, { body: 'Resuelto.' });
    const detail = await ctx.client.support.get(a.id);
    expect(detail.ticket.id).toBe(a.id);
    expect(detail.replies.map((r) => r.body)).toEqual(['Estamos revisando.', 'Resuelto.']);
  });

  it('a live ticket e-mails support and the requester', async () => {
    await ctx.client.support.create({ subject: 'Visor', message: 'No carga el visor' });
    const mail = await ctx.emulator.control<{ mail: unknown[] }>('GET', '/mail');
    expect(mail.mail.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses an unknown category and reads 404 for an unknown ticket', async () => {
    await expect(
      ctx.client.support.create({ subject: 's', message: 'm', category: 'urgent' as TicketCategory }),
    ).rejects.toMatchObject({ code: 'validation_error' });
    await expect(ctx.client.support.get('tkt_nope')).rejects.toMatchObject({ code: 'not_found' });
  });
});
