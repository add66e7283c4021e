// DICOM DA values to ISO dates.

/** `YYYYMMDD` (or the old `YYYY.MM.DD`) to `YYYY-MM-DD`; null when absent or not a real calendar date. */
export function parseDicomDate(value: string): string | null {
  const m = /^(\d{4})\.?(\d{2})\.?(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const [, y = '', mo = '', d = ''] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (year < 1800 || month < 1 || month > 12 || day < 1) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return null;
  return `${y}-${mo}-${d}`;
}

/** Today's date as `YYYY-MM-DD` in local time, the clinic's calendar. */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
