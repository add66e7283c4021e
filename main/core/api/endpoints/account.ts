import { z } from 'zod';
import { apiPath, type CallOptions, type Transport } from '../http/http';
import { optBoolean, optNumber, optString } from '../http/api-schema';

/** GET /me (API-v1.md §2.1), plus fields the service may add (clinic, key type, rate limit). */
export const accountSchema = z.looseObject({
  user_id: z.string(),
  email: z.string(),
  plan: z.string(),
  scopes: z.array(z.string()),
  storage: z.looseObject({ used_bytes: z.number(), limit_bytes: z.number(), used_percent: z.number() }),
  exams: z.looseObject({ count: z.number(), limit: z.number() }),
  clinic_name: optString,
  clinic_slug: optString,
  key_type: optString,
  test_mode: optBoolean,
  rate_limit: z.looseObject({ limit: optNumber, remaining: optNumber, reset: optNumber }).nullish(),
});
export type Account = z.infer<typeof accountSchema>;

/** Account endpoints (§4.1). */
export function accountApi(t: Transport) {
  return {
    /** GET /me: verifies the key and describes the account. */
    me: (options?: CallOptions): Promise<Account> =>
      t.json({ method: 'GET', path: apiPath('me'), kind: 'read', idempotent: true }, accountSchema, options),
  };
}
