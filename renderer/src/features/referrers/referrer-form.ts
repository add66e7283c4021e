// The referrer form's rules, apart from the screen: what must be filled, what an e-mail looks like,
// and which fields changed (only those are sent).
import { z } from 'zod';
import type { ReferrerView } from '../../../../preload/contract';
import { optionalEmail, problemsOf } from '../../components/checked-form';

export type ReferrerValues = { name: string; email: string; phone: string; specialty: string };
export type ReferrerProblem =
  'name_required' | 'name_too_long' | 'email_invalid' | 'phone_invalid' | 'specialty_too_long';
export type ReferrerProblems = Partial<Record<keyof ReferrerValues, ReferrerProblem>>;

export const emptyReferrer: ReferrerValues = { name: '', email: '', phone: '', specialty: '' };

const PHONE = /^[+()\d][\d\s().-]{3,49}$/;

/** What the form accepts; each message is a problem code (`referrers.problems.<code>`). */
export const referrerSchema = z.object({
  name: z.string().trim().min(1, 'name_required').max(200, 'name_too_long'),
  email: optionalEmail('email_invalid', 254),
  phone: z
    .string()
    .trim()
    .refine((s) => s === '' || PHONE.test(s), 'phone_invalid'),
  specialty: z.string().trim().max(200, 'specialty_too_long'),
});

/** The form's values for an existing referrer. */
export function valuesOf(r: ReferrerView): ReferrerValues {
  return { name: r.name, email: r.email ?? '', phone: r.phone ?? '', specialty: r.specialty ?? '' };
}

/** Problems to fix before sending; empty when the values can go to the service. */
export function checkReferrer(v: ReferrerValues): ReferrerProblems {
  return problemsOf(referrerSchema, v) as ReferrerProblems;
}

/** The fields whose trimmed value differs from the original, as the update sends them. */
export function changedFields(original: ReferrerValues, next: ReferrerValues): Partial<ReferrerValues> {
  const changes: Partial<ReferrerValues> = {};
  for (const k of ['name', 'email', 'phone', 'specialty'] as const) {
    if (next[k].trim() !== original[k].trim()) changes[k] = next[k].trim();
  }
  return changes;
}

/** True when the referrer matches every word of the search (name, e-mail, specialty, phone), ignoring case and accents. */
export function matchesSearch(r: ReferrerView, search: string): boolean {
  const fold = (s: string): string =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
  const hay = fold([r.name, r.email ?? '', r.specialty ?? '', r.phone ?? ''].join(' '));
  return fold(search)
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}
