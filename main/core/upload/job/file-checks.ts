// Is a file still what the plan recorded? (size, mtime, inode). A file that changed is never
// uploaded: the job fails naming it, and the next run plans afresh.
import { type Stats, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { UploadError } from '../ports/upload-errors';
import type { PlannedRecord } from '../journal/journal';
import { formatBytes } from '../../format-bytes';

type PlannedFileRecord = PlannedRecord['files'][number];

export async function checkFile(f: PlannedFileRecord): Promise<void> {
  let s: Stats;
  try {
    s = await stat(f.path);
  } catch (err) {
    throw statFailure(f, err);
  }
  compareStat(f, s);
}

export function checkFileSync(f: PlannedFileRecord): void {
  let s: Stats;
  try {
    s = statSync(f.path);
  } catch (err) {
    throw statFailure(f, err);
  }
  compareStat(f, s);
}

function statFailure(f: PlannedFileRecord, err: unknown): UploadError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return new UploadError('file_changed', `"${f.name}" was deleted after the upload was planned.`);
  return new UploadError('file_unreadable', `"${f.name}" cannot be read (${code ?? 'error'}).`, false, { cause: err });
}

function compareStat(f: PlannedFileRecord, s: Stats): void {
  if (s.size !== f.size) {
    throw new UploadError(
      'file_changed',
      `"${f.name}" changed after the upload was planned (its size went from ${formatBytes(f.size)} to ${formatBytes(s.size)}).`,
    );
  }
  if (s.mtimeMs !== f.mtimeMs || (f.ino !== 0 && s.ino !== f.ino)) {
    throw new UploadError('file_changed', `"${f.name}" was modified or replaced after the upload was planned.`);
  }
}

/** A controller that aborts (with the same reason) when `parent` does; `dispose` unhooks it. */
export function childController(parent: AbortSignal): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(parent.reason);
  if (parent.aborted) onAbort();
  else parent.addEventListener('abort', onAbort, { once: true });
  return { controller, dispose: () => parent.removeEventListener('abort', onAbort) };
}
