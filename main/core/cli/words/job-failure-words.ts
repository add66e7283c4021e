// What `watch`, `receive` and `serve` print when an upload fails, in the terminal's language (as
// `upload`, `whoami` and `handout` speak it): a network failure that is understood (the proxy's
// login, a certificate, the clock, DNS…) in its own words, anything else as the error says it.
// Lines carry no patient data: the caller's prefix names the export folder or the job.
import type { UploadJobView } from '../../../../preload/contract';
import type { Agent, JobOrigin } from '../../agent';
import { netFailureWords } from '../../net/failure-words';
import { t, type Language } from '../../i18n';

/** What the queue does next with a job that failed for good: said after the failure. */
export type AfterFailure = 'export_changes' | 'window' | 'none';

/** A job's error in words: its network failure in `lang` when it has one, else its message. */
export function jobErrorWords(error: UploadJobView['error'], lang: Language): string {
  if (!error) return t(lang, 'cli.failure.unknownError');
  return error.net ? netFailureWords(error.net, lang) : error.message;
}

function inWords(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  if (s < 90) return `${s} s`;
  return `${Math.round(s / 60)} min`;
}

/** The line for a job waiting to retry after a network fault. */
export function retryingLine(view: UploadJobView, lang: Language, now = Date.now()): string {
  const wait = view.retry_at ? t(lang, 'cli.failure.retryIn', { wait: inWords(Date.parse(view.retry_at) - now) }) : '';
  return t(lang, 'cli.failure.retrying', { words: jobErrorWords(view.error, lang), wait });
}

/** The line for a job that keeps failing (it keeps retrying). */
export function strugglingLine(view: UploadJobView, lang: Language): string {
  return t(lang, 'cli.failure.struggling', { words: jobErrorWords(view.error, lang) });
}

/** The line for a job that ended: failed for good, or cancelled. */
export function endedLine(view: UploadJobView, lang: Language, after: AfterFailure): string {
  if (view.phase === 'cancelled') return t(lang, 'cli.failure.cancelled');
  const then = after === 'none' ? '' : t(lang, `cli.failure.after.${after}`);
  return t(lang, 'cli.failure.failed', { words: jobErrorWords(view.error, lang), after: then });
}

/**
 * Prints the upload failures of `agent`'s jobs through `say`, each line after `prefix` (the job's
 * export or source; return null to leave a job out).
 */
export function printUploadFailures(
  agent: Pick<Agent, 'activity'>,
  say: (line: string) => void,
  lang: Language,
  prefix: (origin: JobOrigin, view: UploadJobView) => string | null,
  after: AfterFailure,
): void {
  const line = (origin: JobOrigin, view: UploadJobView, text: string): void => {
    const at = prefix(origin, view);
    if (at !== null) say(`${at}${text}`);
  };
  agent.activity.on('upload:retrying', (e) => line(e.origin, e.view, retryingLine(e.view, lang)));
  agent.activity.on('upload:struggling', (e) => line(e.origin, e.view, strugglingLine(e.view, lang)));
  agent.activity.on('upload:ended', (e) => line(e.origin, e.view, endedLine(e.view, lang, after)));
}
