// Failure mapping, as pure functions: what a failed transfer or a failed run means for the job.
import { diskFullIn } from '../../disk-full';
import { transientFailureMessage } from '../ports/failure-text';
import { ExamsPortError } from '../ports/ports';
import { UploadError } from '../ports/upload-errors';
import { AlreadyComplete, UrlsExpired } from '../state/engine-types';
import { TransferError } from '../transfer/transfer';

/**
 * The job's next move after a failed transfer. `recheck`: the file most likely changed under the
 * transfer; the caller re-stats the files, which fails naming the one that did.
 */
export function transferFailureOf(err: unknown, maxAttempts: number): { error: unknown; recheck: boolean } {
  if (!(err instanceof TransferError)) return { error: err, recheck: false };
  switch (err.kind) {
    case 'expired':
      return { error: new UrlsExpired(), recheck: false };
    case 'conflict':
      return { error: new AlreadyComplete(), recheck: false };
    case 'gone':
      return {
        error: new UploadError('exam_deleted', 'The exam was deleted on the service while its files were being sent.'),
        recheck: false,
      };
    case 'source':
      return {
        error: new UploadError('file_unreadable', `A file could not be read: ${err.message}.`, false, { cause: err }),
        recheck: true,
      };
    case 'size_mismatch':
      return {
        error: new UploadError('storage_rejected', `Storage refused a file: ${err.message}.`, false, { cause: err }),
        recheck: true,
      };
    case 'rejected':
      return {
        error: new UploadError('storage_rejected', `Storage refused a file: ${err.message}.`, false, { cause: err }),
        recheck: false,
      };
    case 'retryable':
      return {
        error: new UploadError(
          'network',
          `Sending stopped after ${maxAttempts} attempts (${err.message}). Run the upload again to continue where it stopped.`,
          true,
          { cause: err },
        ),
        recheck: false,
      };
  }
}

/** Any error that ended a run, as an UploadError: resumable for faults of the network or the service. */
export function uploadFailureOf(err: unknown): UploadError {
  if (err instanceof UploadError) return err;
  // A full disk under the data folder: nothing is lost (the journal keeps whole records only), and
  // the job goes on where it stopped once there is room.
  const full = diskFullIn(err);
  if (full) return new UploadError('disk_full', full.message, true, { cause: full });
  if (err instanceof ExamsPortError) {
    return err.kind === 'transient' || err.kind === 'rate_limited'
      ? new UploadError('network', transientFailureMessage(err), true, { cause: err }) // 5xx and unreachable are told apart
      : new UploadError(
          err.kind === 'not_found' ? 'exam_deleted' : 'rejected',
          `The service refused the request: ${err.message}`,
          false,
          { cause: err },
        );
  }
  const e = err instanceof Error ? err : new Error(String(err));
  return new UploadError('network', `The upload stopped: ${e.message}. Run it again to continue.`, true, { cause: e });
}
