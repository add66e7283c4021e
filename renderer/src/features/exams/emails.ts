// Recipients typed in the share form.

const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

/** "a@x.cl, b@y.cl; c@z.cl" → the addresses, and the ones that do not look like e-mail. */
export function parseEmails(text: string): { ok: string[]; bad: string[] } {
  const parts = text
    .split(/[,;\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return { ok: parts.filter((p) => EMAIL.test(p)), bad: parts.filter((p) => !EMAIL.test(p)) };
}
