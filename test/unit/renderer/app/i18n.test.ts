import { describe, expect, it } from 'vitest';
import { effectiveLanguage, languageOfLocale } from '@renderer/src/app/i18n';
import { kindOfKey } from '@renderer/src/app/key-state';
import { newerRate } from '@renderer/src/app/rate';

describe('the window language', () => {
  it('is Spanish for any Spanish locale and English for every other', () => {
    expect(languageOfLocale('es-CL')).toBe('es');
    expect(languageOfLocale('ES')).toBe('es');
    expect(languageOfLocale('en-GB')).toBe('en');
    expect(languageOfLocale('pt-BR')).toBe('en');
    expect(languageOfLocale(undefined)).toBe('en');
  });

  it('follows the setting, or the system when the setting says so', () => {
    expect(effectiveLanguage('en', 'es-ES')).toBe('en');
    expect(effectiveLanguage('system', 'es-ES')).toBe('es');
    expect(effectiveLanguage(undefined, 'es-MX')).toBe('es');
  });
});

describe('kindOfKey', () => {
  it('recognises sandbox keys by their cbct_test_ prefix', () => {
    expect(kindOfKey('  cbct_test_abc123456 ')).toBe('sandbox');
    expect(kindOfKey('cbct_live_abc123456')).toBe('live');
  });
});

describe('newerRate', () => {
  const at = (updated_at: string | null, remaining: number) => ({ limit: 100, remaining, reset_at: null, updated_at });

  it('keeps the reading the service reported last', () => {
    expect(newerRate(at('2026-03-02T10:00:00Z', 5), at('2026-03-02T10:00:01Z', 4))?.remaining).toBe(4);
    expect(newerRate(at('2026-03-02T10:00:02Z', 3), at('2026-03-02T10:00:01Z', 4))?.remaining).toBe(3);
    expect(newerRate(null, at(null, 9))?.remaining).toBe(9);
    expect(newerRate(undefined, undefined)).toBeUndefined();
  });
});
