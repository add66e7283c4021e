import { z } from 'zod';
import type { CallOptions, Transport } from '../http/http';
import { apiPath, type ApiPath } from '../http/http';
import { deletedSchema, type Deleted, optBoolean, optNumber, optString } from '../http/api-schema';

/** Event types of §6.1. */
export type WebhookEventType =
  | 'exam.created'
  | 'exam.confirmed'
  | 'exam.deleted'
  | 'exam.updated'
  | 'exam.shared'
  | 'exam.extra_added'
  | 'report.published'
  | 'report.signed'
  | 'test.ping';

/** A subscription (§2.8). `secret` only in the creation answer; later reads show a prefix. */
export const webhookSchema = z.looseObject({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  description: optString,
  secret: optString,
  secret_prefix: optString,
  created_at: optString,
  consecutive_failures: optNumber,
  disabled_reason: optString,
});
export type Webhook = z.infer<typeof webhookSchema>;

/** The creation answer always carries the full secret. */
export const createdWebhookSchema = webhookSchema.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const webhookListSchema = z.looseObject({ webhooks: z.array(webhookSchema) });
export type WebhookList = z.infer<typeof webhookListSchema>;

export type CreateWebhookRequest = { url: string; events: WebhookEventType[]; description?: string };
export type UpdateWebhookRequest = { events?: WebhookEventType[]; description?: string; enabled?: boolean };

export const deliverySchema = z.looseObject({
  id: z.string(),
  event_id: optString,
  event_type: optString,
  attempt: optNumber,
  retry_count: optNumber,
  status: optString,
  response_status: optNumber,
  response_body: optString,
  error: optString,
  duration_ms: optNumber,
  created_at: optString,
  next_retry_at: optString,
});
export type Delivery = z.infer<typeof deliverySchema>;

export const deliveryListSchema = z.looseObject({ deliveries: z.array(deliverySchema) });
export type DeliveryList = z.infer<typeof deliveryListSchema>;

export const webhookTestResultSchema = z.looseObject({ delivered: optBoolean, delivery: deliverySchema.nullish() });
export type WebhookTestResult = z.infer<typeof webhookTestResultSchema>;

const webhook = (id: string, ...rest: (string | number)[]): ApiPath => apiPath('webhooks', id, ...rest);

/** Webhook subscription endpoints (§4.5). */
export function webhooksApi(t: Transport) {
  return {
    /** POST /webhooks: subscribes; the answer holds the signing secret, shown only this once. */
    create: (body: CreateWebhookRequest, options?: CallOptions): Promise<CreatedWebhook> =>
      t.json(
        { method: 'POST', path: apiPath('webhooks'), body, kind: 'write', idempotent: false },
        createdWebhookSchema,
        options,
      ),

    /** GET /webhooks: every subscription of the account. */
    list: (options?: CallOptions): Promise<WebhookList> =>
      t.json({ method: 'GET', path: apiPath('webhooks'), kind: 'read', idempotent: true }, webhookListSchema, options),

    /** GET /webhooks/{id}. */
    get: (id: string, options?: CallOptions): Promise<Webhook> =>
      t.json({ method: 'GET', path: webhook(id), kind: 'read', idempotent: true }, webhookSchema, options),

    /** PATCH /webhooks/{id}: events, description and/or enabled (absolute values, safe to repeat). */
    update: (id: string, body: UpdateWebhookRequest, options?: CallOptions): Promise<Webhook> =>
      t.json({ method: 'PATCH', path: webhook(id), body, kind: 'write', idempotent: true }, webhookSchema, options),

    /** DELETE /webhooks/{id}: irreversible. */
    remove: (id: string, options?: CallOptions): Promise<Deleted> =>
      t.json({ method: 'DELETE', path: webhook(id), kind: 'write', idempotent: true }, deletedSchema, options),

    /** POST /webhooks/{id}/test: sends one test.ping delivery. Never retried. */
    test: (id: string, options?: CallOptions): Promise<WebhookTestResult> =>
      t.json(
        { method: 'POST', path: webhook(id, 'test'), kind: 'write', idempotent: false },
        webhookTestResultSchema,
        options,
      ),

    /** GET /webhooks/{id}/deliveries: the last 50 deliveries, newest first. */
    deliveries: (id: string, options?: CallOptions): Promise<DeliveryList> =>
      t.json(
        { method: 'GET', path: webhook(id, 'deliveries'), kind: 'read', idempotent: true },
        deliveryListSchema,
        options,
      ),
  };
}
