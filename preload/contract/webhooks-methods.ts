// Webhook subscriptions (API-v1.md §2.8, §4.5, events §6.1).
import { z } from 'zod';
import { id, method, noArgs } from './method';

export const webhookEventTypes = [
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
export type WebhookEventName = (typeof webhookEventTypes)[number];

export type WebhookView = {
  id: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  /** The first characters of the secret (the whole secret is shown only once, at creation). */
  secret_prefix: string | null;
  created_at: string | null;
  consecutive_failures: number | null;
  /** Set when the service switched it off by itself (20 failed deliveries in a row). */
  disabled_reason: string | null;
};

export type CreatedWebhookView = WebhookView & { secret: string };

export type DeliveryView = {
  id: string;
  event_type: string | null;
  status: string | null;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  attempt: number | null;
  retry_count: number | null;
  created_at: string | null;
  next_retry_at: string | null;
};

/** HTTPS, or plain HTTP to this computer (a local test receiver; the service decides whether it accepts it). */
export const webhookUrl = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .refine((value) => {
    try {
      const u = new URL(value);
      if (u.username || u.password) return false;
      return (
        u.protocol === 'https:' || (u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname))
      );
    } catch {
      return false;
    }
  }, 'must be an https:// address');

const events = z.array(z.enum(webhookEventTypes)).min(1).max(webhookEventTypes.length);

export const webhooksMethods = {
  'webhooks:list': method<{ webhooks: WebhookView[] }>()(noArgs),
  'webhooks:create': method<CreatedWebhookView>()(
    z.object({ url: webhookUrl, events, description: z.string().trim().max(500).optional() }).strict(),
  ),
  'webhooks:update': method<WebhookView>()(
    z
      .object({
        id,
        enabled: z.boolean().optional(),
        events: events.optional(),
        description: z.string().trim().max(500).optional(),
      })
      .strict(),
  ),
  'webhooks:remove': method<{ ok: true }>()(z.object({ id }).strict()),
  'webhooks:test': method<{ delivered: boolean; delivery: DeliveryView | null }>()(z.object({ id }).strict()),
  'webhooks:deliveries': method<{ deliveries: DeliveryView[] }>()(z.object({ id }).strict()),
} as const;
