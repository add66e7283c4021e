import { z } from 'zod';
import type { CallOptions, Transport } from '../http/http';
import { apiPath, type ApiPath } from '../http/http';
import { deletedSchema, type Deleted, optString } from '../http/api-schema';

/** A referring dentist (§2.9). Sandbox keys get mocks with ids `rfr_test_…`, stored nowhere. */
export const referrerSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  email: optString,
  phone: optString,
  specialty: optString,
  notes: optString,
  created_at: optString,
  updated_at: optString,
});
export type Referrer = z.infer<typeof referrerSchema>;

export const referrerListSchema = z.looseObject({ referrers: z.array(referrerSchema) });
export type ReferrerList = z.infer<typeof referrerListSchema>;

export type CreateReferrerRequest = { name: string; email?: string; phone?: string; specialty?: string };
/** Only the fields given change; null clears an optional field. */
export type UpdateReferrerRequest = {
  name?: string;
  email?: string | null;
  phone?: string | null;
  specialty?: string | null;
};

const referrer = (id: string, ...rest: (string | number)[]): ApiPath => apiPath('referrers', id, ...rest);

/** Referrers endpoints (§4.6). */
export function referrersApi(t: Transport) {
  return {
    /** GET /referrers: sorted by name. */
    list: (options?: CallOptions): Promise<ReferrerList> =>
      t.json(
        { method: 'GET', path: apiPath('referrers'), kind: 'read', idempotent: true },
        referrerListSchema,
        options,
      ),

    /** POST /referrers. Never retried (it would create a duplicate). */
    create: (body: CreateReferrerRequest, options?: CallOptions): Promise<Referrer> =>
      t.json(
        { method: 'POST', path: apiPath('referrers'), body, kind: 'write', idempotent: false },
        referrerSchema,
        options,
      ),

    /** GET /referrers/{id}. */
    get: (id: string, options?: CallOptions): Promise<Referrer> =>
      t.json({ method: 'GET', path: referrer(id), kind: 'read', idempotent: true }, referrerSchema, options),

    /** PATCH /referrers/{id}: only the fields given change. */
    update: (id: string, body: UpdateReferrerRequest, options?: CallOptions): Promise<Referrer> =>
      t.json({ method: 'PATCH', path: referrer(id), body, kind: 'write', idempotent: true }, referrerSchema, options),

    /** DELETE /referrers/{id}: `already_deleted` when it was not there. */
    remove: (id: string, options?: CallOptions): Promise<Deleted> =>
      t.json({ method: 'DELETE', path: referrer(id), kind: 'write', idempotent: true }, deletedSchema, options),
  };
}
