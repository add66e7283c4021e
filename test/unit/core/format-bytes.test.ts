// The core's byte formatter (every CLI line and core message) and the window's: one unit system,
// the same text for the same size.
import { describe, expect, it } from 'vitest';
import { formatBytes } from '@main/core/format-bytes';
import { formatBytes as windowFormatBytes } from '@renderer/src/components/format';

const KB = 1024;
const MB = KB * 1024;
const GB = MB * 1024;

describe('formatBytes (core)', () => {
  it('counts in powers of 1024 named KB, MB, GB, as File Explorer and the service do', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(211_812_352)).toBe('202 MB');
    // The service's ZIP limit (API-v1.md: 1073741824, "1 GB") and a plan's storage.
    expect(formatBytes(1_073_741_824)).toBe('1 GB');
    expect(formatBytes(200 * GB)).toBe('200 GB');
  });

  it('shows three significant digits and drops trailing zeros', () => {
    expect(formatBytes(1.04 * GB)).toBe('1.04 GB');
    expect(formatBytes(12.34 * MB)).toBe('12.3 MB');
    expect(formatBytes(123.4 * KB)).toBe('123 KB');
    expect(formatBytes(10 * MB)).toBe('10 MB');
  });

  it('rounds up to the next unit instead of writing 1024 of the smaller one', () => {
    expect(formatBytes(1023.7 * KB)).toBe('1 MB');
    expect(formatBytes(1023.6)).toBe('1 KB');
  });

  it('writes the decimal comma in Spanish, and no thousands separator in either language', () => {
    expect(formatBytes(1536, 'es')).toBe('1,5 KB');
    expect(formatBytes(1.04 * GB, 'es')).toBe('1,04 GB');
    expect(formatBytes(2000 * 1024 * GB, 'en')).toBe('2000 TB');
    expect(formatBytes(2000 * 1024 * GB, 'es')).toBe('2000 TB');
  });

  it('never shows a negative size', () => {
    expect(formatBytes(-5)).toBe('0 B');
  });
});

describe('the window and the core', () => {
  it('write the same text for the same size, in both languages', () => {
    const sizes = [0, 1, 999, 1000, 1023, 1024, 1536, 10_239, 10_240, 102_350, 1_048_064, 1_048_575];
    for (let n = 1; n < 2 ** 44; n = Math.ceil(n * 1.37) + 7) sizes.push(n);
    for (const lang of ['es', 'en'] as const) {
      for (const n of sizes) expect(windowFormatBytes(n, lang), `${n} bytes, ${lang}`).toBe(formatBytes(n, lang));
    }
  });
});
