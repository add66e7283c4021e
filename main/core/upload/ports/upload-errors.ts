// Typed upload failures. `code` is stable (the UI and the CLI branch on it); `message` is plain
// language for clinic staff and never contains patient data.

import type { UploadErrorCode } from '../../../../preload/contract/error-codes';

export type { UploadErrorCode };

/** An upload failure with a stable code; `resumable` means running the job again continues it. */
export class UploadError extends Error {
  override name = 'UploadError';
  constructor(
    readonly code: UploadErrorCode,
    message: string,
    readonly resumable = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Thrown when a job is interrupted on purpose (stop or pause) rather than failing. */
export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || (err as { code?: unknown }).code === 'ABORT_ERR');
}
