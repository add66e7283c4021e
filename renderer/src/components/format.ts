// Numbers, sizes, rates and times as staff read them, in the window's language.
import type { Language } from '../../../preload/contract';

const locale = (lang: Language): string => (lang === 'es' ? 'es-ES' : 'en-US');

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * 1536 → "1.5 KB" / "1,5 KB": powers of 1024 named KB, MB, GB (as Windows' File Explorer shows them
 * and the service counts), three significant digits, trailing zeros dropped. The same function as
 * the core's (main/core/format-bytes.ts, which says why); test/unit/core/format-bytes.test.ts holds
 * the two to the same output.
 */
export function formatBytes(bytes: number, lang: Language): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  let digits = byteDecimals(value, unit);
  // 1023.7 KB shows as 1 MB, not 1024 KB.
  if (unit < BYTE_UNITS.length - 1 && roundTo(value, digits) >= 1024) {
    value /= 1024;
    unit += 1;
    digits = byteDecimals(value, unit);
  }
  const shown = new Intl.NumberFormat(locale(lang), { maximumFractionDigits: digits, useGrouping: false }).format(
    roundTo(value, digits),
  );
  return `${shown} ${BYTE_UNITS[unit]}`;
}

/** Decimals for three significant digits; whole bytes have none. */
function byteDecimals(value: number, unit: number): number {
  if (unit === 0) return 0;
  return value < 10 ? 2 : value < 100 ? 1 : 0;
}

function roundTo(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** Bytes per second → "2.4 MB/s". */
export function formatRate(bytesPerSecond: number, lang: Language): string {
  return `${formatBytes(bytesPerSecond, lang)}/s`;
}

/** A number with a fixed count of decimals and the language's decimal mark ("569,2" / "569.2"). */
export function formatDecimal(n: number, digits: number, lang: Language): string {
  return new Intl.NumberFormat(locale(lang), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
    n,
  );
}

export function formatNumber(n: number, lang: Language): string {
  return new Intl.NumberFormat(locale(lang)).format(n);
}

/** Seconds → "1 h 05 min", "3 min 20 s", "45 s". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m > 0) return `${m} min ${String(r).padStart(2, '0')} s`;
  return `${r} s`;
}

/** An ISO instant as local time of day ("14:05"), or date and time when it is not today. */
export function formatTime(iso: string, lang: Language, now: Date = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const sameDay = d.toDateString() === now.toDateString();
  return new Intl.DateTimeFormat(
    locale(lang),
    sameDay ? { hour: '2-digit', minute: '2-digit', second: '2-digit' } : { dateStyle: 'short', timeStyle: 'short' },
  ).format(d);
}

/** A `YYYY-MM-DD` date as the locale writes it (the value is a calendar date: no time zone shift). */
export function formatDate(ymd: string | null, lang: Language): string {
  if (!ymd) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd);
  if (!m) return ymd;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return new Intl.DateTimeFormat(locale(lang), { dateStyle: 'medium', timeZone: 'UTC' }).format(d);
}

/** Whole percent, 0–100, of done over total (0 when total is 0). */
export function percent(done: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.max(0, Math.floor((done / total) * 100)));
}
