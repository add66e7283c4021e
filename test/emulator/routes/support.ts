import { z } from 'zod';
import type { App, AuthInfo } from '../core/app';
import { badRequest, notFound, parseJson, readBody } from '../core/http';
import { newId } from '../core/ids';
import type { Ticket } from '../core/state';
import { objectBody, parseWith, queryInt } from '../core/validate';

/** Where the live service sends new tickets. */
export const SUPPORT_ADDRESS = 'support@service.example';

const CATEGORIES = ['general', 'bug', 'billing', 'feature_request', 'account', 'viewer'] as const;

const createSchema = z.strictObject({
  subject: z.string().trim().min(1, 'required').max(200),
  message: z.string().trim().min(1, 'required').max(10000),
  category: z.enum(CATEGORIES).default('general'),
  exam_id: z.union([z.string().trim().max(100), z.null()]).optional(),
});

const replySchema = z.strictObject({ body: z.string().trim().min(1, 'required').max(10000) });

function view(t: Ticket): Record<string, unknown> {
  return {
    id: t.id,
    subject: t.subject,
    message: t.message,
    category: t.category,
    exam_id: t.exam_id,
    status: t.status,
    created_at: t.created_at,
    updated_at: t.updated_at,
    replies_count: t.replies.length,
  };
}

/** Support tickets (API-v1.md §2.12, §4.9, sandbox rules §5.5) and the control route for admin replies. */
export function register(app: App): void {
  const state = () => app.store.state;
  const own = (auth: AuthInfo, id: string): Ticket | undefined =>
    auth.sandbox ? undefined : state().tickets.find((t) => t.id === id && t.account_id === auth.account.id);

  /** An exam the caller's key can see: same account, same live/sandbox side, not deleted. */
  const examVisible = (auth: AuthInfo, id: string): boolean =>
    !state().deleted_exam_ids.includes(id) &&
    state().exams.some((e) => e.id === id && e.account_id === auth.account.id && e.sandbox === auth.sandbox);

  app.api.add('POST', '/support/tickets', { scope: 'support:write' }, ({ auth, body }) => {
    const input = parseWith(createSchema, objectBody(body));
    const examId = input.exam_id ? input.exam_id : null;
    if (examId !== null && !examVisible(auth, examId)) {
      throw badRequest('exam_id does not name an exam of this account', [
        { field: 'exam_id', message: 'no such exam on this account' },
      ]);
    }
    const now = app.clock.nowIso();
    const ticket: Ticket = {
      id: newId(auth.sandbox ? 'tkt_test_' : 'tkt_'),
      account_id: auth.account.id,
      subject: input.subject,
      message: input.message,
      category: input.category,
      exam_id: examId,
      status: 'open',
      replies: [],
      created_at: now,
      updated_at: now,
    };
    if (auth.sandbox) return { status: 201, body: { ...view(ticket), test_mode: true } };
    state().tickets.push(ticket);
    const { account } = auth;
    app.events.mail({
      account_id: account.id,
      kind: 'support_ticket',
      to: [SUPPORT_ADDRESS],
      cc: [],
      subject: `[${ticket.id}] ${ticket.subject}`,
      body: [
        `Clínica: ${account.clinic_name} (${account.email}, plan ${account.plan})`,
        `Categoría: ${ticket.category}`,
        examId ? `Examen: ${examId}` : 'Examen: —',
        '',
        ticket.message,
      ].join('\n'),
      attachments: [],
      exam_id: examId,
    });
    app.events.mail({
      account_id: account.id,
      kind: 'support_confirmation',
      to: [account.email],
      cc: [],
      subject: `Recibimos su solicitud de soporte ${ticket.id}`,
      body: `Hemos recibido su solicitud "${ticket.subject}" (${ticket.id}). Le responderemos a la brevedad; verá la respuesta en la aplicación y por correo.`,
      attachments: [],
      exam_id: examId,
    });
    app.events.activity(
      account.id,
      'ticket.created',
      'ticket',
      ticket.id,
      { ticket_id: ticket.id, category: ticket.category, exam_id: examId },
      false,
    );
    return { status: 201, body: view(ticket) };
  });

  app.api.add('GET', '/support/tickets', { scope: 'support:read' }, ({ auth, query }) => {
    const limit = queryInt(query, 'limit', 50, 1, 100);
    if (auth.sandbox) return { body: { tickets: [] } };
    const mine = state().tickets.filter((t) => t.account_id === auth.account.id);
    // Stored in creation order; newest first is the reverse (creation stamps may share a millisecond).
    const newest = mine.reverse().slice(0, limit);
    return { body: { tickets: newest.map(view) } };
  });

  app.api.add('GET', '/support/tickets/:id', { scope: 'support:read' }, ({ auth, params }) => {
    const t = own(auth, params['id'] ?? '');
    if (!t) throw notFound('Ticket');
    return { body: { ticket: view(t), replies: t.replies.map((r) => ({ body: r.body, created_at: r.created_at })) } };
  });

  // Control API (CONTRACTS.md §1): an admin answers a ticket.
  app.control.add('POST', '/tickets/:id/replies', { scope: null }, async ({ req, params }) => {
    const input = parseWith(replySchema, objectBody(parseJson(await readBody(req))));
    const t = state().tickets.find((x) => x.id === params['id']);
    if (!t) throw notFound('Ticket');
    const now = app.clock.nowIso();
    t.replies.push({ body: input.body, created_at: now });
    t.status = 'answered';
    t.updated_at = now;
    app.events.notify(
      t.account_id,
      {
        type: 'support_reply',
        title: `Respuesta de soporte: ${t.subject}`,
        body: input.body.slice(0, 500),
        exam_id: t.exam_id,
      },
      false,
    );
    const account = state().accounts.find((a) => a.id === t.account_id);
    if (account) {
      app.events.mail({
        account_id: account.id,
        kind: 'support_reply',
        to: [account.email],
        cc: [],
        subject: `Re: [${t.id}] ${t.subject}`,
        body: input.body,
        attachments: [],
        exam_id: t.exam_id,
      });
    }
    app.events.activity(
      t.account_id,
      'ticket.replied',
      'ticket',
      t.id,
      { ticket_id: t.id, replies_count: t.replies.length },
      false,
    );
    return {
      status: 201,
      body: { ticket: view(t), replies: t.replies.map((r) => ({ body: r.body, created_at: r.created_at })) },
    };
  });
}
