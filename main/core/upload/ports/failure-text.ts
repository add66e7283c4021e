// Plain words for a transient fault the engine gave up on. "Could not be reached" sent staff to
// check the cable when the service was up and answering 500: say which of the two it was.
import { ApiError } from '../../api/http';
import { statusFailure } from '../../net/failure-class';
import { netFailureWords } from '../../net/failure-words';
import type { ExamsPortError } from './ports';
import { t } from '../../i18n';

/** The message for a run stopped by a transient fault (`err.kind` is transient or rate_limited). */
export function transientFailureMessage(err: ExamsPortError): string {
  const { status, code } = err.details;
  // A failure the network module understands (proxy login, certificate, DNS…) in its own words.
  if (err.cause instanceof ApiError && err.cause.netFailure)
    return `${netFailureWords(err.cause.netFailure)} Then run the upload again to continue.`;
  if (err.kind === 'rate_limited')
    return `The service kept refusing requests because its rate limit was reached (${err.message}). Run the upload again later to continue.`;
  if (code === 'timeout' || (status !== undefined && statusFailure(status).cause === 'timeout'))
    return `The service did not answer in time (${err.message}). Run the upload again to continue.`;
  if (status !== undefined && status >= 500) {
    return `The service failed: it answered with an error (HTTP ${status}) every time it was asked. Run the upload again later to continue; if it keeps happening, contact the service's support.`;
  }
  return `The service could not be reached (${err.message}). Check the connection, then run the upload again to continue.`;
}

/**
 * The notice for an exam removed because the answer to its create request was lost. Said
 * differently when this run sent that request (a time-out or a 5xx a moment ago) than when an
 * earlier run was interrupted in the middle of it.
 */
export function orphanRemovedMessage(examId: string, fromThisRun: boolean): string {
  return t('en', fromThisRun ? 'core.notice.orphanThisRun' : 'core.notice.orphanEarlier', { examId });
}
