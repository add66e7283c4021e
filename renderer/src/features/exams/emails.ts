// Recipients typed in the share form.
import { isEmailAddress } from '../../components/checked-form';

/** "a@x.cl, b@y.cl; c@z.cl" → the addresses, and the ones that do not look like e-mail. */
export function parseEmails(text: string): { ok: string[]; bad: string[] } {
  const parts = text
    .split(/[,;\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return { ok: parts.filter(isEmailAddress), bad: parts.filter((p) => !isEmailAddress(p)) };
}
