import { describe, expect, it } from 'vitest';
import { formatDecimal, parseDecimal } from '@renderer/src/components/decimal';

const MM = { min: 0.1, max: 100, decimals: 2 };

describe('decimals as typed', () => {
  it('reads 4,1 and 4.1 as the same 4.1, with or without the unit', () => {
    for (const text of ['4.1', '4,1', ' 4,1 ', '4,1 mm', '4.10mm', '+4.1']) {
      expect(parseDecimal(text, MM, 'mm'), text).toEqual({ kind: 'ok', value: 4.1 });
    }
    expect(parseDecimal('10', MM)).toEqual({ kind: 'ok', value: 10 });
    expect(parseDecimal(',5', MM)).toEqual({ kind: 'ok', value: 0.5 });
    expect(parseDecimal('3.', MM)).toEqual({ kind: 'ok', value: 3 });
  });

  it('never reads 4.1 as 41 (no thousands marks are guessed)', () => {
    expect(parseDecimal('4.100,5', MM)).toEqual({ kind: 'bad', reason: 'not_a_number' });
    expect(parseDecimal('4,1.2', MM)).toEqual({ kind: 'bad', reason: 'not_a_number' });
    expect(parseDecimal('1 000', MM)).toEqual({ kind: 'bad', reason: 'not_a_number' });
  });

  it('refuses what is not a number or impossible for the field, saying why', () => {
    expect(parseDecimal('', MM)).toEqual({ kind: 'empty' });
    expect(parseDecimal('mm', MM, 'mm')).toEqual({ kind: 'empty' });
    for (const text of ['abc', '.', ',', '-4', '4e1', '0x10', '4,1,', 'NaN', 'Infinity'])
      expect(parseDecimal(text, MM).kind, text).toBe('bad');
    expect(parseDecimal('0', MM)).toEqual({ kind: 'bad', reason: 'too_small' });
    expect(parseDecimal('100,01', MM)).toEqual({ kind: 'bad', reason: 'too_large' });
    expect(parseDecimal('4,125', MM)).toEqual({ kind: 'bad', reason: 'too_precise' });
  });

  it('writes a number the way the language does', () => {
    expect(formatDecimal(4.1, 'es')).toBe('4,1');
    expect(formatDecimal(4.1, 'en')).toBe('4.1');
    expect(formatDecimal(12.345, 'es', 1)).toBe('12,3');
    expect(formatDecimal(1000, 'en')).toBe('1000');
  });
});
