import { z } from 'zod';
import type { CallOptions, Transport } from '../http/http';
import { apiPath, type ApiPath } from '../http/http';
import { optBoolean, optString } from '../http/api-schema';

/** A consent record (§2.6): `status` is pending or signed; `hash` is the SHA-256 of the signed PDF. */
export const consentSchema = z.looseObject({
  status: z.string(),
  signing_method: optString,
  signed_at: optString,
  hash: optString,
  country_code: optString,
  locale: optString,
  signer_name: optString,
  created_at: optString,
  updated_at: optString,
});
export type Consent = z.infer<typeof consentSchema>;

/** GET answers the consent itself, or `{consent: null}` when none exists (read as null). */
export const consentReadSchema = z.union([z.looseObject({ consent: z.null() }).transform(() => null), consentSchema]);

export type InitConsentRequest = { country_code?: string; locale?: 'es' | 'en' | 'pt' };

/** In-person signature on the clinic's screen (§4.3). */
export type SignInPersonRequest = {
  signer_name: string;
  signer_rut: string;
  /** YYYY-MM-DD */
  patient_birth_date?: string;
  /** Base64 PNG of the drawn signature. */
  signature_image: string;
  accepted: true;
};

export type ConsentEmailRequest = { to: string; patient_name?: string };

/** Sandbox keys get `sent: false`; `sign_url` may be shown as a QR code. */
export const consentEmailResultSchema = z.looseObject({
  sign_url: z.string(),
  sent: optBoolean,
  reason: optString,
  email_id: optString,
});
export type ConsentEmailResult = z.infer<typeof consentEmailResultSchema>;

export type ConsentPdfType = 'blank' | 'signed';

const consent = (examId: string, ...rest: (string | number)[]): ApiPath => apiPath('exams', examId, 'consent', ...rest);

/** Informed-consent endpoints (§4.3). Signing and e-mailing are never repeated after a fault. */
export function consentApi(t: Transport) {
  return {
    /** GET /exams/{id}/consent: the consent, or null when none was started. */
    get: (examId: string, options?: CallOptions): Promise<Consent | null> =>
      t.json({ method: 'GET', path: consent(examId), kind: 'read', idempotent: true }, consentReadSchema, options),

    /** POST /exams/{id}/consent: starts (or restarts a pending) consent; ConflictError once signed. */
    init: (examId: string, body: InitConsentRequest = {}, options?: CallOptions): Promise<Consent> =>
      t.json({ method: 'POST', path: consent(examId), body, kind: 'write', idempotent: false }, consentSchema, options),

    /** POST /exams/{id}/consent/sign-inperson: signs with the drawn signature; the service makes the PDF. */
    signInPerson: (examId: string, body: SignInPersonRequest, options?: CallOptions): Promise<Consent> =>
      t.json(
        { method: 'POST', path: consent(examId, 'sign-inperson'), body, kind: 'write', idempotent: false },
        consentSchema,
        options,
      ),

    /** POST /exams/{id}/consent/email: e-mails the signing link (sandbox: nothing is sent). */
    sendEmail: (examId: string, body: ConsentEmailRequest, options?: CallOptions): Promise<ConsentEmailResult> =>
      t.json(
        { method: 'POST', path: consent(examId, 'email'), body, kind: 'write', idempotent: false },
        consentEmailResultSchema,
        options,
      ),

    /** GET /exams/{id}/consent/pdf: the blank or the signed PDF, as bytes. */
    pdf: async (examId: string, type: ConsentPdfType, options?: CallOptions): Promise<Uint8Array> =>
      (
        await t.bytes(
          { method: 'GET', path: consent(examId, 'pdf'), query: { type }, kind: 'binary', idempotent: true },
          options,
        )
      ).bytes,
  };
}
