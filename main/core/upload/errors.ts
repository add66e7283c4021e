// Typed upload failures. `code` is stable (the UI and the CLI branch on it); `message` is plain
// language for clinic staff and never contains patient data.

export type UploadErrorCode =
  // Refused before any exam is created.
  | 'no_files'
  | 'too_many_files'
  | 'zip_too_large'
  | 'name_required'
  | 'name_too_long'
  | 'invalid_file_name'
  | 'duplicate_file_name'
  | 'file_unreadable'
  // Some files of the study cannot be read whole (cut short, permission denied): nothing was sent.
  | 'incomplete_study'
  // Found while the job runs.
  | 'file_changed'
  | 'rejected'
  | 'exam_deleted'
  | 'storage_rejected'
  | 'urls_keep_expiring'
  | 'incomplete_after_confirm'
  // Not final: the journal is kept and the next run resumes.
  // Another process of this computer is uploading the same study.
  | 'busy'
  | 'network'
  | 'interrupted'
  | 'cancelled';

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
