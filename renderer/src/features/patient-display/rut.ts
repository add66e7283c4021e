import { calculateRutVerifier, validateRut } from '@fdograph/rut-utilities';

/**
 * A RUT formatted as it is typed: thousands dots in the number, the hyphen and check digit kept
 * only when the person typed them (a missing hyphen must stay visible, not be invented).
 */
export function formatRutAsTyped(input: string): string {
  const cleaned = input.toUpperCase().replace(/[^0-9K-]/g, '');
  const dash = cleaned.indexOf('-');
  const bodyRaw = (dash < 0 ? cleaned : cleaned.slice(0, dash))
    .replace(/[^0-9]/g, '')
    .replace(/^0+(?=\d)/, '')
    .slice(0, 8);
  const body = bodyRaw.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  if (dash < 0) return body;
  const dv = cleaned
    .slice(dash + 1)
    .replace(/-/g, '')
    .slice(0, 1);
  return `${body}-${dv}`;
}

export type RutProblem = 'empty' | 'missing_hyphen' | 'invalid_rut';

/** Null when the RUT is complete and its check digit right. */
export function rutProblem(value: string): RutProblem | null {
  const s = value.trim();
  if (s === '') return 'empty';
  if (!/-[0-9K]$/i.test(s)) return 'missing_hyphen';
  const body = s.slice(0, s.lastIndexOf('-')).replace(/\./g, '');
  if (!/^\d{1,8}$/.test(body)) return 'invalid_rut';
  // The library checks the digit; repeated-digit numbers (11.111.111-1) are valid RUTs too.
  if (!validateRut(s, false) || calculateRutVerifier(body).toUpperCase() !== s.slice(-1).toUpperCase())
    return 'invalid_rut';
  return null;
}
