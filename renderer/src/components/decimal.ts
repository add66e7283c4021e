// Decimals as people type them: `4,1` and `4.1` both mean 4.1 in every language (the numeric
// keypad gives a dot even on a Spanish keyboard). One mark only: `4.100,5` or `4,1.2` are refused
// rather than guessed, and so is a value the field cannot take.
export type DecimalResult =
  | { kind: 'empty' }
  | { kind: 'ok'; value: number }
  | { kind: 'bad'; reason: 'not_a_number' | 'too_small' | 'too_large' | 'too_precise' };

export type DecimalRule = { min: number; max: number; /** Digits after the mark at most. */ decimals?: number };

/** Reads `text` (an optional unit such as "mm" or "%" after the number is allowed). */
export function parseDecimal(text: string, rule: DecimalRule, unit = ''): DecimalResult {
  let s = text.trim();
  if (unit && s.toLowerCase().endsWith(unit.toLowerCase())) s = s.slice(0, -unit.length).trim();
  if (s === '') return { kind: 'empty' };
  const m = /^([+]?)(\d*)(?:[.,](\d*))?$/.exec(s);
  if (!m || ((m[2] ?? '') === '' && (m[3] ?? '') === '')) return { kind: 'bad', reason: 'not_a_number' };
  const decimals = m[3] ?? '';
  if (rule.decimals !== undefined && decimals.length > rule.decimals) return { kind: 'bad', reason: 'too_precise' };
  const value = Number(`${m[2] || '0'}.${decimals || '0'}`);
  if (!Number.isFinite(value)) return { kind: 'bad', reason: 'not_a_number' };
  if (value < rule.min) return { kind: 'bad', reason: 'too_small' };
  if (value > rule.max) return { kind: 'bad', reason: 'too_large' };
  return { kind: 'ok', value };
}

/** A number as the language writes it (4,1 in Spanish, 4.1 in English), without thousands marks. */
export function formatDecimal(value: number, lang: 'es' | 'en', decimals = 2): string {
  const text = String(Number(value.toFixed(decimals)));
  return lang === 'es' ? text.replace('.', ',') : text;
}
