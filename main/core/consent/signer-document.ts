// The signer's identity document: in Chile the RUT (check digit verified, hyphen and check digit
// required, as the consent form prints it); elsewhere any document number.
import { RutFormat, formatRut, validateRut } from '@fdograph/rut-utilities';

export type DocumentCheck =
  { ok: true; value: string } | { ok: false; reason: 'missing_hyphen' | 'invalid_rut' | 'empty' };

const RUT_SHAPE = /^[0-9.]+-[0-9kK]$/;

/** Checks the document for `countryCode`; a valid RUT comes back as `12345678-5`. */
export function checkSignerDocument(countryCode: string, input: string): DocumentCheck {
  const s = input.trim();
  if (s === '') return { ok: false, reason: 'empty' };
  if (countryCode.toUpperCase() !== 'CL') return { ok: true, value: s };
  if (!s.includes('-')) return { ok: false, reason: 'missing_hyphen' };
  // noSuspicious=false: repeated-digit RUTs such as 11.111.111-1 are real (and valid) numbers.
  if (!RUT_SHAPE.test(s) || !validateRut(s, false)) return { ok: false, reason: 'invalid_rut' };
  return { ok: true, value: formatRut(s, RutFormat.DASH).toUpperCase() };
}
