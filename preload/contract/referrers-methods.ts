// The clinic's referrers, the dentists who send patients (API v1 §2.9, §4.6). Sandbox keys read an empty list
// and store nothing, so every answer says whether a sandbox key was used.
import { z } from 'zod';
import { id, method, noArgs } from './method';

export type ReferrerView = {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  specialty: string | null;
};
export type ReferrerList = { referrers: ReferrerView[]; sandbox: boolean };
/** A created or changed referrer; with a sandbox key it is a mock the service did not keep. */
export type ReferrerSaved = { referrer: ReferrerView; sandbox: boolean };
export type ReferrerDeleted = { deleted: true; already_deleted: boolean; sandbox: boolean };

/** Optional text: empty means "none" (null), so a field can be cleared. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((s) => (s === '' ? null : s))
    .nullable();

export const referrerFields = z
  .object({
    name: z.string().trim().min(1).max(200),
    email: z
      .union([z.literal(''), z.string().trim().max(254).pipe(z.email())])
      .transform((s) => (s === '' ? null : s))
      .nullable(),
    phone: optionalText(50),
    specialty: optionalText(200),
  })
  .strict();

export const referrersMethods = {
  'referrers:list': method<ReferrerList>()(noArgs),
  'referrers:create': method<ReferrerSaved>()(referrerFields.partial({ email: true, phone: true, specialty: true })),
  /** Sends only the fields given (the window passes the ones the user changed). */
  'referrers:update': method<ReferrerSaved>()(z.object({ id, changes: referrerFields.partial() }).strict()),
  'referrers:delete': method<ReferrerDeleted>()(z.object({ id }).strict()),
} as const;
