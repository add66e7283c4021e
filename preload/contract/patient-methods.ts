// The patient display's methods: the only ones its page may call (its own preload on the desktop,
// a token bound to one consent session in browser mode). Each names the session it acts on; a
// session that has ended answers `session_ended`.
import { z } from 'zod';
import { id, method } from './method';
import type { PatientView } from './types-consent';

const session = z.object({ session_id: id }).strict();

export const patientMethods = {
  /** The current session as the patient may see it (idle when there is none, or not this one). */
  'patient:session': method<PatientView>()(z.object({ session_id: id.optional() }).strict()),
  /** The blank consent PDF of the session's exam. */
  'patient:pdf': method<{ pdf_base64: string }>()(session),
  /** Tells the front desk how far the patient is (read to the end, signing). */
  'patient:progress': method<{ ok: true }>()(session.extend({ phase: z.enum(['reading', 'signing']) })),
  /** Signs in person with the drawn signature (PNG, base64). */
  'patient:sign': method<{ ok: true }>()(
    session
      .extend({
        signer_name: z.string().trim().min(1).max(200),
        document: z.string().trim().min(1).max(50),
        birth_date: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .nullable(),
        signature_png: z.string().min(100).max(2_000_000),
        accepted: z.literal(true),
      })
      .strict(),
  ),
} as const;

/** The method names a patient display may call, and nothing else. */
export const patientMethodNames: readonly (keyof typeof patientMethods)[] = Object.keys(
  patientMethods,
) as (keyof typeof patientMethods)[];
