import { z } from 'zod';
import type { ExamType, InboxFields } from '../../../../preload/contract';
import { problemsOf } from '../../components/checked-form';
import { parseEmails } from '../exams/emails';

/** The inbox form as typed (strings and numbers as the inputs give them). */
export type FormState = {
  name: string;
  patient_name: string;
  patient_id: string;
  birth_date: string;
  reason: string;
  exam_type: ExamType;
  expiration_days: number | string;
  share_to: string;
  share_locale: 'es' | 'en' | 'pt';
};

export type FormProblem =
  | 'name_required'
  | 'name_too_long'
  | 'patient_id_too_long'
  | 'birth_date_invalid'
  | 'expiration_invalid'
  | 'share_to_invalid'
  | 'share_to_too_many';

export function toForm(f: InboxFields): FormState {
  return { ...f, birth_date: f.birth_date ?? '', expiration_days: f.expiration_days ?? '' };
}

/** True for a real `YYYY-MM-DD` date (not 1980-02-30). */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** What the form accepts before saving or uploading; each message is a `FormProblem`. */
export const inboxSchema = z.object({
  name: z.string().trim().min(1, 'name_required').max(200, 'name_too_long'),
  patient_id: z.string().max(64, 'patient_id_too_long'),
  birth_date: z.string().refine((s) => s === '' || isCalendarDate(s), 'birth_date_invalid'),
  expiration_days: z.custom<number | string>((v) => {
    if (v === '') return true;
    const n = Number(v);
    return Number.isInteger(n) && n >= 1 && n <= 3650;
  }, 'expiration_invalid'),
  share_to: z.string().superRefine((text, ctx) => {
    const share = parseEmails(text);
    if (share.bad.length > 0) ctx.addIssue({ code: 'custom', message: 'share_to_invalid' });
    else if (share.ok.length > 10) ctx.addIssue({ code: 'custom', message: 'share_to_too_many' });
  }),
});

/** Problems per field, or an empty object when the form can be sent. */
export function validate(form: FormState): Partial<Record<keyof FormState, FormProblem>> {
  return problemsOf(inboxSchema, form) as Partial<Record<keyof FormState, FormProblem>>;
}

/** The form as the contract's fields (call only when `validate` found nothing). */
export function toFields(form: FormState): InboxFields {
  return {
    name: form.name.trim(),
    patient_name: form.patient_name.trim(),
    patient_id: form.patient_id.trim(),
    birth_date: form.birth_date === '' ? null : form.birth_date,
    reason: form.reason,
    exam_type: form.exam_type,
    expiration_days: form.expiration_days === '' ? null : Number(form.expiration_days),
    share_to: parseEmails(form.share_to).ok.join(', '),
    share_locale: form.share_locale,
  };
}

/** The fields that differ from what main holds (only those are sent). */
export function changedFields(form: FormState, saved: InboxFields): Partial<InboxFields> {
  const next = toFields(form);
  const out: Partial<InboxFields> = {};
  for (const k of Object.keys(next) as (keyof InboxFields)[]) {
    if (next[k] !== saved[k]) (out as Record<string, unknown>)[k] = next[k];
  }
  return out;
}
