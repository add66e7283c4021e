import { z } from 'zod';
import type { CallOptions, Transport } from '../http/http';
import { apiPath } from '../http/http';
import { optBoolean, optNumber, optString } from '../http/api-schema';
import type { TicketCategory } from '../../../../preload/contract';

/** A support ticket (§2.12). Sandbox keys get a mock `tkt_test_…` with `test_mode: true`. */
export const ticketSchema = z.looseObject({
  id: z.string(),
  subject: optString,
  message: optString,
  category: optString,
  exam_id: optString,
  status: optString,
  created_at: optString,
  replies_count: optNumber,
  test_mode: optBoolean,
});
export type Ticket = z.infer<typeof ticketSchema>;

export const ticketListSchema = z.looseObject({ tickets: z.array(ticketSchema) });
export type TicketList = z.infer<typeof ticketListSchema>;

export const ticketDetailSchema = z.looseObject({
  ticket: ticketSchema,
  replies: z.array(z.looseObject({ body: z.string(), created_at: optString })),
});
export type TicketDetail = z.infer<typeof ticketDetailSchema>;

export type CreateTicketRequest = { subject: string; message: string; category?: TicketCategory; exam_id?: string };

/** Support ticket endpoints (§4.9). */
export function supportApi(t: Transport) {
  return {
    /** GET /support/tickets: the most recent tickets (default 50). */
    list: (query: { limit?: number } = {}, options?: CallOptions): Promise<TicketList> =>
      t.json(
        { method: 'GET', path: apiPath('support', 'tickets'), query, kind: 'read', idempotent: true },
        ticketListSchema,
        options,
      ),

    /** POST /support/tickets: opens a ticket (live: e-mails support). Never retried. */
    create: (body: CreateTicketRequest, options?: CallOptions): Promise<Ticket> =>
      t.json(
        { method: 'POST', path: apiPath('support', 'tickets'), body, kind: 'write', idempotent: false },
        ticketSchema,
        options,
      ),

    /** GET /support/tickets/{id}: the ticket and its replies, oldest first. */
    get: (id: string, options?: CallOptions): Promise<TicketDetail> =>
      t.json(
        { method: 'GET', path: apiPath('support', 'tickets', id), kind: 'read', idempotent: true },
        ticketDetailSchema,
        options,
      ),
  };
}
