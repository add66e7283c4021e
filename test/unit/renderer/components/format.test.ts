import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, formatDuration, formatTime, percent } from '@renderer/src/components/format';

describe('formatBytes', () => {
  it('uses powers of 1024 with three significant digits', () => {
    expect(formatBytes(0, 'en')).toBe('0 B');
    expect(formatBytes(1536, 'en')).toBe('1.5 KB');
    expect(formatBytes(211_812_352, 'en')).toBe('202 MB');
  });

  it('writes the decimal comma in Spanish', () => {
    expect(formatBytes(1536, 'es')).toBe('1,5 KB');
  });
});

describe('formatDuration', () => {
  it('shows hours and minutes, minutes and seconds, or seconds', () => {
    expect(formatDuration(3900)).toBe('1 h 05 min');
    expect(formatDuration(200)).toBe('3 min 20 s');
    expect(formatDuration(45.4)).toBe('45 s');
    expect(formatDuration(-3)).toBe('0 s');
  });
});

describe('formatDate', () => {
  it('shows a calendar date without shifting it by the time zone', () => {
    expect(formatDate('1980-01-31', 'es')).toBe('31 ene 1980');
    expect(formatDate('1980-01-31', 'en')).toBe('Jan 31, 1980');
  });

  it('leaves values that are not YYYY-MM-DD as they are, and null empty', () => {
    expect(formatDate('31/01/1980', 'en')).toBe('31/01/1980');
    expect(formatDate(null, 'en')).toBe('');
  });
});

describe('formatTime', () => {
  it('shows only the time of day for today and the date too otherwise', () => {
    const now = new Date(2026, 2, 2, 12, 0, 0);
    expect(formatTime(new Date(2026, 2, 2, 14, 5, 9).toISOString(), 'es', now)).toBe('14:05:09');
    expect(formatTime(new Date(2026, 2, 3, 14, 5, 9).toISOString(), 'es', now)).toMatch(/3\/3\/26.*14:05/);
    expect(formatTime('not a date', 'es', now)).toBe('');
  });
});

describe('percent', () => {
  it('is a whole number from 0 to 100 and 0 for an empty total', () => {
    expect(percent(1, 3)).toBe(33);
    expect(percent(5, 0)).toBe(0);
    expect(percent(7, 5)).toBe(100);
  });
});
