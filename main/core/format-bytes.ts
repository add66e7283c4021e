// Sizes as staff read them, for every line the core and the CLI write ("the ZIP would be 1.04 GB",
// "12.3 MB of 45.6 MB", "Storage 0 B of 200 GB used"). The window has the same function in
// renderer/src/components/format.ts (it cannot import the core); test/unit/core/format-bytes.test.ts
// holds the two to the same output.
//
// Powers of 1024 named KB, MB, GB, TB: what Windows' File Explorer shows for the same files, and how
// the service counts (API-v1.md: a ZIP of at most 1073741824 bytes, "1 GB"; plans' storage).
// Three significant digits, trailing zeros dropped ("1.5 KB", "1.04 GB", "202 MB"), with the
// language's decimal mark ("1,5 KB" in Spanish) and no thousands separator.
import type { Language } from '../../preload/contract/vocabulary';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** 1536 → "1.5 KB" ("1,5 KB" in Spanish); 1073741824 → "1 GB". */
export function formatBytes(bytes: number, lang: Language = 'en'): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  let digits = decimalsFor(value, unit);
  // 1023.7 KB shows as 1 MB, not 1024 KB.
  if (unit < UNITS.length - 1 && round(value, digits) >= 1024) {
    value /= 1024;
    unit += 1;
    digits = decimalsFor(value, unit);
  }
  const shown = new Intl.NumberFormat(lang === 'es' ? 'es-ES' : 'en-US', {
    maximumFractionDigits: digits,
    useGrouping: false,
  }).format(round(value, digits));
  return `${shown} ${UNITS[unit]}`;
}

/** Decimals for three significant digits; whole bytes have none. */
function decimalsFor(value: number, unit: number): number {
  if (unit === 0) return 0;
  return value < 10 ? 2 : value < 100 ? 1 : 0;
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
