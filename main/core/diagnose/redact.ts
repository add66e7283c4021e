// Redaction of text that leaves this computer in a support bundle (log lines, messages): patient
// names and IDs, API keys and tokens, e-mail addresses and logins in URLs are replaced by a
// bracketed word. Known values (the names and IDs of the studies this app holds) are removed
// wherever they appear; patterns catch the rest (DICOM person names, RUT/DNI-like IDs, long digit
// runs, cbct_ keys, Bearer tokens). It errs on the side of removing too much.

export type RedactionContext = {
  /** Patient names and IDs the app knows of (inbox, queue): removed wherever they appear. */
  known?: readonly string[];
};

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const PATTERNS: readonly [RegExp, string][] = [
  // Logins inside URLs (a proxy's user and password): scheme://user:pass@host
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+(?::[^\s/@]*)?@/gi, '$1[login]@'],
  [/\bBearer\s+[A-Za-z0-9._~+/=-]+/g, 'Bearer [key]'],
  [/\bcbct_(?:live|test)_[A-Za-z0-9]+/g, '[key]'],
  // Query parameters that carry secrets or identities (tokens, passwords, PINs, signatures).
  [/([?&](?:token|password|pin|signature|sig|key|x-amz-signature|patient[_a-z]*)=)[^&\s]+/gi, '$1[redacted]'],
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, '[email]'],
  // DICOM person names: FAMILY^GIVEN^MIDDLE…
  [/[^\s^"'=:,;()[\]{}]+(?:\^[^\s^"',;()[\]{}]*)+/g, '[name]'],
  // Chilean RUT (12.345.678-9, 12345678-K) and national IDs with a check letter (12345678Z).
  [/\b\d{1,2}\.?\d{3}\.?\d{3}-[\dkK]\b/g, '[id]'],
  [/\b\d{7,8}[A-Za-z]\b/g, '[id]'],
  // Any other run of seven or more digits (record numbers, phone numbers).
  [/\b\d{7,}\b/g, '[id]'],
];

/** `text` with patient data, keys, e-mail addresses and logins replaced. */
export function redact(text: string, context: RedactionContext = {}): string {
  let out = text;
  const known = [...new Set((context.known ?? []).map((k) => k.trim()).filter((k) => k.length >= 3))].sort(
    (a, b) => b.length - a.length,
  );
  for (const value of known) {
    out = out.replace(new RegExp(escapeRe(value), 'giu'), '[patient]');
    // Each word of a known name on its own too (a name written in another order).
    for (const word of value.split(/[\s^,]+/).filter((w) => w.length >= 3))
      out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRe(word)}(?![\\p{L}\\p{N}])`, 'giu'), '[patient]');
  }
  for (const [re, by] of PATTERNS) out = out.replace(re, by);
  return out;
}

/** Each line redacted. */
export function redactLines(lines: readonly string[], context: RedactionContext = {}): string[] {
  return lines.map((l) => redact(l, context));
}
