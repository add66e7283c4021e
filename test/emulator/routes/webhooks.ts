import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { ApiCtx, App } from '../core/app';
import { badRequest, notFound } from '../core/http';
import { newId } from '../core/ids';
import type { Delivery, Webhook } from '../core/state';
import { objectBody, parseWith } from '../core/validate';
import { WebhookDispatcher } from '../webhooks/dispatcher';
import { webhookUrlProblem } from '../webhooks/url-policy';

/** The §6.1 event types a subscription may list. */
export const EVENT_TYPES = [
  'exam.created',
  'exam.confirmed',
  'exam.deleted',
  'exam.updated',
  'exam.shared',
  'exam.extra_added',
  'report.published',
  'report.signed',
  'test.ping',
] as const;

const SCOPE = { scope: 'webhooks:write' };

const eventsSchema = z
  .array(z.enum(EVENT_TYPES))
  .min(1, 'at least one event type is required')
  .transform((list) => [...new Set(list)]);
const createSchema = z.strictObject({
  url: z.string().trim().min(1).max(2048),
  events: eventsSchema,
  description: z.string().max(500).optional(),
});
const patchSchema = z
  .strictObject({
    events: eventsSchema.optional(),
    description: z.string().max(500).optional(),
    enabled: z.boolean().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'give at least one of events, description, enabled');

/** A subscription as later reads show it: the secret only by its prefix. */
function view(h: Webhook): Record<string, unknown> {
  return {
    id: h.id,
    url: h.url,
    events: [...h.events],
    description: h.description,
    enabled: h.enabled,
    secret_prefix: h.secret.slice(0, 10),
    consecutive_failures: h.consecutive_failures,
    disabled_reason: h.disabled_reason,
    created_at: h.created_at,
    updated_at: h.updated_at,
  };
}

function deliveryView(d: Delivery): Record<string, unknown> {
  return {
    id: d.id,
    event_id: d.event_id,
    event_type: d.event_type,
    attempt: d.attempt,
    retry_count: d.attempt - 1,
    status: d.status,
    response_status: d.response_status,
    response_body: d.response_body,
    error: d.error,
    duration_ms: d.duration_ms,
    created_at: d.created_at,
    next_retry_at: d.next_retry_at,
  };
}

/** Webhook subscriptions (API-v1.md §2.8, §3.5, §4.5) and their delivery (§6). */
export function register(app: App): void {
  const dispatcher = new WebhookDispatcher(app);
  dispatcher.install();

  /** Sandbox keys manage their own subscriptions, apart from the live ones. */
  const own = (ctx: ApiCtx): Webhook => {
    const id = ctx.params['id'] ?? '';
    const hook = app.store.state.webhooks.find(
      (h) => h.id === id && h.account_id === ctx.auth.account.id && h.sandbox === ctx.auth.sandbox,
    );
    if (!hook) throw notFound('Webhook');
    return hook;
  };

  app.api.add('POST', '/webhooks', SCOPE, (ctx) => {
    const body = parseWith(createSchema, objectBody(ctx.body));
    const problem = webhookUrlProblem(body.url, app.config.insecureWebhooks);
    if (problem) throw badRequest(`url ${problem}`, [{ field: 'url', message: problem }]);
    const now = app.clock.nowIso();
    const hook: Webhook = {
      id: newId('wh_'),
      account_id: ctx.auth.account.id,
      sandbox: ctx.auth.sandbox,
      url: body.url,
      events: body.events,
      description: body.description ?? '',
      enabled: true,
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
      consecutive_failures: 0,
      disabled_reason: null,
      created_at: now,
      updated_at: now,
    };
    app.store.state.webhooks.push(hook);
    app.events.activity(hook.account_id, 'webhook.created', 'webhook', hook.id, { events: hook.events }, hook.sandbox);
    const { id, url, events, description, enabled, secret, created_at } = hook;
    return { status: 201, body: { id, url, events: [...events], description, enabled, secret, created_at } };
  });

  app.api.add('GET', '/webhooks', SCOPE, (ctx) => ({
    body: {
      webhooks: app.store.state.webhooks
        .filter((h) => h.account_id === ctx.auth.account.id && h.sandbox === ctx.auth.sandbox)
        .map(view),
    },
  }));

  app.api.add('GET', '/webhooks/:id', SCOPE, (ctx) => ({ body: view(own(ctx)) }));

  app.api.add('PATCH', '/webhooks/:id', SCOPE, (ctx) => {
    const hook = own(ctx);
    const body = parseWith(patchSchema, objectBody(ctx.body));
    const changed: string[] = [];
    if (body.events !== undefined) {
      hook.events = body.events;
      changed.push('events');
    }
    if (body.description !== undefined) {
      hook.description = body.description;
      changed.push('description');
    }
    if (body.enabled !== undefined && body.enabled !== hook.enabled) {
      hook.enabled = body.enabled;
      // Re-enabling starts a fresh failure streak; the reason for an automatic disable no longer applies.
      if (body.enabled) {
        hook.consecutive_failures = 0;
        hook.disabled_reason = null;
      }
      changed.push('enabled');
    }
    hook.updated_at = app.clock.nowIso();
    app.events.activity(hook.account_id, 'webhook.updated', 'webhook', hook.id, { fields: changed }, hook.sandbox);
    return { body: view(hook) };
  });

  app.api.add('DELETE', '/webhooks/:id', SCOPE, (ctx) => {
    const hook = own(ctx);
    const s = app.store.state;
    s.webhooks = s.webhooks.filter((h) => h !== hook);
    dispatcher.forget(hook.id);
    app.events.activity(hook.account_id, 'webhook.deleted', 'webhook', hook.id, {}, hook.sandbox);
    return { body: { deleted: true, id: hook.id } };
  });

  app.api.add('POST', '/webhooks/:id/test', SCOPE, async (ctx) => {
    const hook = own(ctx);
    const delivery = await dispatcher.ping(hook);
    return { body: { delivered: delivery.status === 'succeeded', delivery: deliveryView(delivery) } };
  });

  app.api.add('GET', '/webhooks/:id/deliveries', SCOPE, (ctx) => {
    const hook = own(ctx);
    const mine = app.store.state.deliveries.filter((d) => d.webhook_id === hook.id);
    return { body: { deliveries: mine.reverse().map(deliveryView) } };
  });
}
