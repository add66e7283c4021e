// The one temp-file-then-rename writer. Every file the core rewrites whole (the upload list, the
// inbox, preferences, done markers on the share, compacted journals) goes through it, so that a
// crash leaves the old file or the new one, never half of one, and no other user can read it.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

export type AtomicWriteOptions = {
  /** File mode of a new file (default 0600: patient data is never readable by other users). */
  mode?: number;
  /** fsync the file before the rename and the folder after it (survives a power cut, not just a crash). */
  durable?: boolean;
};

const tempOf = (path: string): string => `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;

/** Writes `text` to `path` atomically (see the file comment); creates the folder (0700) if needed. */
export async function writeFileAtomic(path: string, text: string, options: AtomicWriteOptions = {}): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = tempOf(path);
  try {
    const handle = await open(tmp, 'wx', options.mode ?? 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      if (options.durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
  if (options.durable) fsyncDir(dirname(path));
}

/** The same, blocking (for the few callers that must not return before the file is in place). */
export function writeFileAtomicSync(path: string, text: string, options: AtomicWriteOptions = {}): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = tempOf(path);
  try {
    const fd = openSync(tmp, 'wx', options.mode ?? 0o600);
    try {
      const buf = Buffer.from(text, 'utf8');
      for (let off = 0; off < buf.length;) off += writeSync(fd, buf, off, buf.length - off);
      if (options.durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // Never created.
    }
    throw e;
  }
  if (options.durable) fsyncDir(dirname(path));
}

/** A JSON value, written atomically. */
export function writeJsonAtomic(path: string, value: unknown, options: AtomicWriteOptions = {}): Promise<void> {
  return writeFileAtomic(path, JSON.stringify(value), options);
}

/** fsyncs a folder, so that a rename in it survives a power cut. */
export function fsyncDir(dir: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // EISDIR/EPERM on Windows: NTFS journals metadata itself.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * Coalesces saves: `schedule()` writes once, `delayMs` after the first change of a burst; writes
 * never overlap; `flush()` writes what is pending now and waits (shutdown, tests). A write that
 * fails (a full disk) never escapes as an unhandled rejection: `onError` hears of it, and the save
 * is tried again every `retryMs` until it succeeds (the state in memory is the newest anyway).
 */
export class DebouncedSave {
  private timer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: () => Promise<void>,
    private readonly delayMs: number,
    private readonly onError: (err: unknown) => void = () => undefined,
    private readonly retryMs = 5_000,
  ) {}

  schedule(): void {
    if (this.timer) return;
    this.arm(this.delayMs);
  }

  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.saving = this.saving.then(() => this.attempt(false));
    }
    await this.saving;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.saving = this.saving.then(() => this.attempt(true));
    }, ms);
    this.timer.unref?.();
  }

  private async attempt(retry: boolean): Promise<void> {
    try {
      await this.write();
    } catch (err) {
      this.onError(err);
      if (retry && !this.timer) this.arm(this.retryMs);
    }
  }
}
