// Informed consent (API v1 §4.3) from the operator's side: status, start, the patient display,
// e-mail signing, and the signed PDF's verification.
import { z } from 'zod';
import { id, method, noArgs } from './method';
import type { Settings } from './types';
import type {
  ConsentEmailView,
  ConsentOverview,
  ConsentSessionView,
  ConsentStartResult,
  ConsentVerification,
  DisplayInfo,
} from './types-consent';

const examArgs = z.object({ exam_id: id }).strict();

export const consentMethods = {
  /** The exam (name, patient), its consent and the patient-display session if it is about this exam. */
  'consent:get': method<ConsentOverview>()(examArgs),
  /** Starts (or restarts while pending) the consent; a signed one answers `already_signed`. */
  'consent:start': method<ConsentStartResult>()(z.object({ exam_id: id, locale: z.enum(['es', 'en']) }).strict()),
  /** Opens the patient display on this exam's consent (ends any other session). */
  'consent:display-open': method<ConsentSessionView>()(
    z.object({ exam_id: id, signer_name: z.string().trim().max(200) }).strict(),
  ),
  /** Ends the patient-display session: the display goes back to its idle screen. */
  'consent:display-close': method<{ ok: true }>()(noArgs),
  /** E-mails the signing link; the answer's `sign_url` is shown as a QR code. */
  'consent:email': method<ConsentEmailView>()(
    z.object({ exam_id: id, to: z.email().max(320), patient_name: z.string().trim().min(1).max(200) }).strict(),
  ),
  /** Keeps the consent's status fresh while the panel is open (frugal: backoff, ends once signed). */
  'consent:watch': method<{ ok: true }>()(examArgs),
  'consent:unwatch': method<{ ok: true }>()(examArgs),
  /** Downloads the signed PDF, checks its SHA-256 against the service's and saves a copy. */
  'consent:verify': method<ConsentVerification>()(examArgs),
  /** The blank consent (to read or print). */
  'consent:pdf': method<{ pdf_base64: string }>()(examArgs),
  /** The displays the patient display can use (empty in browser mode). */
  'consent:displays': method<DisplayInfo[]>()(noArgs),
  'consent:settings': method<Settings>()(
    z
      .object({
        country_code: z
          .string()
          .regex(/^[A-Za-z]{2}$/)
          .transform((c) => c.toUpperCase())
          .optional(),
        copies_folder: z.string().min(1).max(4096).nullable().optional(),
        display_id: z.number().int().nullable().optional(),
      })
      .strict(),
  ),
} as const;
