// Webhook subscriptions (API-v1.md §4.5): the secret reaches the window only in the creation answer,
// and is not kept anywhere in the core.
import type { DeliveryView, WebhookView } from '../../../../preload/contract';
import type { Delivery, Webhook } from '../../api/endpoints';
import { ContractFailure } from '../host/contract-host';
import type { Handlers } from '../host/contract-host';
import type { HandlerContext } from './handler-context';

const webhookView = (w: Webhook): WebhookView => ({
  id: w.id,
  url: w.url,
  events: w.events,
  description: w.description ?? '',
  enabled: w.enabled,
  secret_prefix: w.secret_prefix ?? null,
  created_at: w.created_at ?? null,
  consecutive_failures: w.consecutive_failures ?? null,
  disabled_reason: w.disabled_reason ?? null,
});

const deliveryView = (d: Delivery): DeliveryView => ({
  id: d.id,
  event_type: d.event_type ?? null,
  status: d.status ?? null,
  response_status: d.response_status ?? null,
  response_body: d.response_body ? d.response_body.slice(0, 500) : null,
  error: d.error ?? null,
  attempt: d.attempt ?? null,
  retry_count: d.retry_count ?? null,
  created_at: d.created_at ?? null,
  next_retry_at: d.next_retry_at ?? null,
});

const isLoopbackHttp = (url: string): boolean => {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
  } catch {
    return false;
  }
};

export function createWebhooksHandlers(
  ctx: HandlerContext,
): Pick<
  Handlers,
  'webhooks:list' | 'webhooks:create' | 'webhooks:update' | 'webhooks:remove' | 'webhooks:test' | 'webhooks:deliveries'
> {
  return {
    'webhooks:list': async () => {
      const { webhooks } = await ctx.service.require().webhooks.list();
      return { webhooks: webhooks.map(webhookView) };
    },
    'webhooks:create': async (args) => {
      const client = ctx.service.require();
      // Plain HTTP only reaches a receiver on this computer, and only while the service itself is a
      // local test service; the real service accepts HTTPS only.
      if (!args.url.startsWith('https:') && !(isLoopbackHttp(args.url) && isLoopbackHttp(client.baseUrl))) {
        throw new ContractFailure('invalid_args', 'The address must start with https://.', [
          { field: 'url', message: 'must be an https:// address' },
        ]);
      }
      const created = await client.webhooks.create({
        url: args.url,
        events: args.events,
        ...(args.description ? { description: args.description } : {}),
      });
      return { ...webhookView(created), secret: created.secret };
    },
    'webhooks:update': async (args) => {
      const { id, ...fields } = args;
      if (Object.keys(fields).length === 0)
        throw new ContractFailure('invalid_args', 'Nothing to change.', [
          { field: '(args)', message: 'no field given' },
        ]);
      return webhookView(await ctx.service.require().webhooks.update(id, fields));
    },
    'webhooks:remove': async (args) => {
      await ctx.service.require().webhooks.remove(args.id);
      return { ok: true as const };
    },
    'webhooks:test': async (args) => {
      const r = await ctx.service.require().webhooks.test(args.id);
      return { delivered: r.delivered === true, delivery: r.delivery ? deliveryView(r.delivery) : null };
    },
    'webhooks:deliveries': async (args) => {
      const { deliveries } = await ctx.service.require().webhooks.deliveries(args.id);
      return { deliveries: deliveries.map(deliveryView) };
    },
  };
}
