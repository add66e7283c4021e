// A full disk (or a quota reached) said in words: which folder could not be written and how much
// room to make there. Every writer of the data folder (upload journals, compressed archives, the
// DICOM listener's received objects, the agent's state files) turns ENOSPC/EDQUOT into a
// DiskFullError, so that front ends say one clear sentence in the user's language instead of a
// system code, and what failed can be tried again once space returns.
import { dirname } from 'node:path';
import { t, type Language } from './i18n';

/** The least room asked for: a journal line is small, but a disk with a few bytes left fails again at once. */
const MIN_NEEDED = 16 * 1024 * 1024;

export class DiskFullError extends Error {
  override name = 'DiskFullError';
  constructor(
    /** The folder that could not be written. */
    readonly folder: string,
    /** Bytes to free there (at least MIN_NEEDED). */
    readonly needed: number,
    options?: { cause?: unknown },
  ) {
    super(diskFullWords(folder, Math.max(needed, MIN_NEEDED), 'en'), options);
    this.needed = Math.max(needed, MIN_NEEDED);
  }
}

/** True for a write refused because the disk (or the user's quota) is full. */
export function isNoSpace(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** `err` as a DiskFullError for a write of `bytes` under `folder` when it is a full disk, else `err` itself. */
export function asDiskFull(err: unknown, folder: string, bytes = 0): unknown {
  if (err instanceof DiskFullError || !isNoSpace(err)) return err;
  return new DiskFullError(folder, bytes, { cause: err });
}

/** The folder of a file that could not be written. */
export function folderOf(path: string): string {
  return dirname(path);
}

/** The DiskFullError behind an error, through its causes. */
export function diskFullIn(err: unknown): DiskFullError | null {
  for (let e: unknown = err, i = 0; e && i < 8; i++) {
    if (e instanceof DiskFullError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

function megabytes(bytes: number): string {
  return `${Math.max(1, Math.ceil(bytes / (1024 * 1024)))} MB`;
}

/** "The disk holding … is full: free at least … there." in `lang`. */
export function diskFullWords(folder: string, needed: number, lang: Language = 'en'): string {
  return t(lang, 'core.diskFull', { folder, size: megabytes(Math.max(needed, MIN_NEEDED)) });
}
