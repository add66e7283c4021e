import { describe, expect, it } from 'vitest';
import { parseDicomDate } from '@main/core/dicom';

describe('parseDicomDate', () => {
  const cases: [string, string | null][] = [
    ['20260302', '2026-03-02'],
    ['19800131', '1980-01-31'],
    ['20240229', '2024-02-29'],
    ['20230229', null],
    ['20230230', null],
    ['20231301', null],
    ['20230100', null],
    ['00000000', null],
    ['1980.01.31', '1980-01-31'],
    [' 19800131 ', '1980-01-31'],
    ['198001', null],
    ['2023-01-05', null],
    ['', null],
    ['UNKNOWN', null],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${String(expected)}`, () => {
      expect(parseDicomDate(input)).toBe(expected);
    });
  }
});
