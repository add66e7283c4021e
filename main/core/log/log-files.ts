// The log's files (CONTRACTS.md §3): `<data dir>/logs/scanbridge-YYYY-MM-DD.log`, one a day (the
// computer's local date), in a private folder, the oldest removed past 14 days or 100 MB in all.
// Every process appends to the same day's file through its own descriptor opened with O_APPEND,
// writing each line with one synchronous write (pino's sonic-boom destination in sync mode): the
// kernel puts every write at the end of the file, so lines of several processes never overwrite
// or cut into one another, and a line is on disk before the call returns (nothing is lost when the
// process exits or crashes). How this was chosen over rotating libraries: README.md here.
import { chmodSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../private-fs';

export const LOG_FILE_RE = /^scanbridge-(\d{4}-\d{2}-\d{2})\.log$/;
export const KEEP_DAYS = 14;
export const KEEP_BYTES = 100 * 1024 * 1024;
/** How much this process writes between two looks at the folder's total size. */
const CHECK_EVERY_BYTES = 1024 * 1024;

/** The log folder of a data folder. */
export function logDirOf(dataDir: string): string {
  return join(dataDir, 'logs');
}

/** The computer's local date as YYYY-MM-DD. */
export function localDay(d: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

export function logFileName(day: string): string {
  return `scanbridge-${day}.log`;
}

export type LogFile = { name: string; day: string; path: string; bytes: number };

/** The log files in `dir`, oldest first (none when the folder does not exist). */
export function listLogFiles(dir: string): LogFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const files: LogFile[] = [];
  for (const name of names) {
    const m = LOG_FILE_RE.exec(name);
    if (!m?.[1]) continue;
    try {
      files.push({ name, day: m[1], path: join(dir, name), bytes: statSync(join(dir, name)).size });
    } catch {
      // Removed meanwhile by another process's pruning.
    }
  }
  return files.sort((a, b) => a.day.localeCompare(b.day));
}

/** `day` minus `n` days, as YYYY-MM-DD. */
export function daysBefore(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return localDay(new Date(y, m - 1, d - n));
}

/**
 * Removes the files older than `keepDays` days (today counts as one) and then, oldest first, as
 * many as needed to bring the folder under `keepBytes`; today's file is never removed. Several
 * processes may prune at once: a file another one removed first is simply gone.
 */
export function pruneLogs(dir: string, today: string, o: { keepDays?: number; keepBytes?: number } = {}): string[] {
  const oldestKept = daysBefore(today, (o.keepDays ?? KEEP_DAYS) - 1);
  const removed: string[] = [];
  const remove = (f: LogFile): void => {
    try {
      unlinkSync(f.path);
    } catch {
      // Already removed by another process.
    }
    removed.push(f.name);
  };
  const files = listLogFiles(dir);
  const kept = files.filter((f) => {
    if (f.day < oldestKept) {
      remove(f);
      return false;
    }
    return true;
  });
  let total = kept.reduce((sum, f) => sum + f.bytes, 0);
  for (const f of kept) {
    if (total <= (o.keepBytes ?? KEEP_BYTES) || f.day >= today) break;
    remove(f);
    total -= f.bytes;
  }
  return removed;
}

export type DailyFileOptions = {
  dir: string;
  now?: () => Date;
  keepDays?: number;
  keepBytes?: number;
};

/**
 * The destination pino writes to: each line to the current day's file. A new day opens the next
 * file; the folder is pruned at every opening and after every megabyte this process writes. When today's file alone has reached the size
 * limit, lines are dropped until the next day, so a runaway loop cannot fill the disk.
 */
export class DailyLogFile {
  private stream: ReturnType<typeof pino.destination> | null = null;
  private day = '';
  private file = '';
  private sinceCheck = 0;
  private full = false;
  private readonly now: () => Date;

  constructor(private readonly o: DailyFileOptions) {
    this.now = o.now ?? ((): Date => new Date());
  }

  /** The file lines go to now. */
  currentFile(): string {
    return join(this.o.dir, logFileName(localDay(this.now())));
  }

  write(line: string): boolean {
    try {
      const day = localDay(this.now());
      if (day !== this.day || !this.stream) this.open(day);
      if (this.full || !this.stream) return true;
      this.stream.write(line);
      this.sinceCheck += Buffer.byteLength(line);
      if (this.sinceCheck >= CHECK_EVERY_BYTES) this.check();
    } catch {
      // The log must never stop the work it records (a full disk, a folder made read-only).
    }
    return true;
  }

  private open(day: string): void {
    this.close();
    this.day = day;
    this.full = false;
    ensurePrivateDir(this.o.dir);
    pruneLogs(this.o.dir, day, this.o);
    const file = join(this.o.dir, logFileName(day));
    this.file = file;
    this.stream = pino.destination({ dest: file, sync: true, append: true, mode: PRIVATE_FILE_MODE });
    // A file made by an older version, or copied in, may be readable by others: tighten it.
    try {
      if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, PRIVATE_FILE_MODE);
    } catch {
      // Not ours to change (Windows has no mode bits): the folder's own protection stays.
    }
    this.check();
  }

  private check(): void {
    this.sinceCheck = 0;
    pruneLogs(this.o.dir, this.day, this.o);
    try {
      if (this.stream && statSync(this.file).size >= (this.o.keepBytes ?? KEEP_BYTES)) this.full = true;
    } catch {
      // The file was removed behind our back: the next line opens it again.
      this.close();
    }
  }

  /** Closes the current file (lines are already on disk: each write is synchronous). */
  close(): void {
    const s = this.stream;
    this.stream = null;
    if (!s) return;
    try {
      s.destroy();
    } catch {
      // Closing a file that is gone changes nothing.
    }
  }
}
