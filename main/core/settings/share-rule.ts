// A share rule: "e-mail every exam from here to this address once it is ready". A watch folder
// carries one (settings), and a DICOM listener can carry the same object. `shareIntentOf` merges a
// source's rule with the addresses staff typed or picked for one study (the inbox's review form).
import { z } from 'zod';
import { SHARE_LOCALES, type ShareLocale } from '../../../preload/contract/vocabulary';

const email = z.email().max(320);

export const shareRuleSchema = z.object({
  to: z.array(email).min(1).max(10),
  /** The e-mail's language; null: the service's default. */
  locale: z.enum(SHARE_LOCALES).nullable().default(null),
});
export type ShareRule = z.infer<typeof shareRuleSchema>;

/** Addresses typed as "a@x.cl, b@y.cl" (commas, semicolons or spaces): the good ones and the others. */
export function parseAddressList(text: string): { ok: string[]; bad: string[] } {
  const parts = text
    .split(/[,;\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const ok: string[] = [];
  const bad: string[] = [];
  for (const p of parts) {
    if (!email.safeParse(p).success) bad.push(p);
    else if (!ok.some((a) => a.toLowerCase() === p.toLowerCase())) ok.push(p);
  }
  return { ok, bad };
}

/**
 * Whom a study's exam goes to once ready: the rule's addresses and the study's own (at most 10), in
 * the study's language when staff chose addresses, else the rule's. Undefined when nobody.
 */
export function shareIntentOf(
  rule: ShareRule | null | undefined,
  typed: string,
  typedLocale: ShareLocale | null,
): { to: string[]; locale: ShareLocale | null } | undefined {
  const own = parseAddressList(typed).ok;
  const to: string[] = [];
  for (const a of [...own, ...(rule?.to ?? [])]) if (!to.some((x) => x.toLowerCase() === a.toLowerCase())) to.push(a);
  if (to.length === 0) return undefined;
  return { to: to.slice(0, 10), locale: own.length > 0 ? typedLocale : (rule?.locale ?? null) };
}
