/**
 * Chilean RUT (Rol Único Tributario) check: body digits plus a módulo 11 check digit (0-9 or K).
 * Accepted spellings: `12.345.678-5`, `12345678-5`, `9.876.543-K` (k in either case).
 */
const DOTTED = /^\d{1,3}(?:\.\d{3}){1,2}-[\dkK]$/;
const PLAIN = /^\d{1,8}-[\dkK]$/;

/** The módulo 11 check digit of a RUT body ('0'-'9' or 'K'). */
export function rutCheckDigit(body: string): string {
  let sum = 0;
  let factor = 2;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += Number(body[i]) * factor;
    factor = factor === 7 ? 2 : factor + 1;
  }
  const rest = 11 - (sum % 11);
  if (rest === 11) return '0';
  if (rest === 10) return 'K';
  return String(rest);
}

/** The RUT in canonical form (`12345678-5`), or null when it is malformed or its check digit is wrong. */
export function normalizeRut(input: string): string | null {
  const s = input.trim();
  if (!DOTTED.test(s) && !PLAIN.test(s)) return null;
  const [rawBody = '', dv = ''] = s.replace(/\./g, '').split('-');
  const body = rawBody.replace(/^0+/, '');
  if (body.length === 0) return null;
  return rutCheckDigit(body) === dv.toUpperCase() ? `${body}-${dv.toUpperCase()}` : null;
}
