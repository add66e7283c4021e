// What `watch`, `receive` and `serve` print when an upload fails, in the terminal's language (as
// `upload`, `whoami` and `handout` speak it): a network failure that is understood (the proxy's
// login, a certificate, the clock, DNS…) in its own words, anything else as the error says it.
// Lines carry no patient data: the caller's prefix names the export folder or the job.
import type { UploadJobView } from '../../../../preload/contract';
import type { Agent, JobOrigin } from '../../agent';
import { netFailureWords, type WordsLanguage } from '../../net/failure-words';

/** What the queue does next with a job that failed for good: said after the failure. */
export type AfterFailure = 'export_changes' | 'window' | 'none';

/** A job's error in words: its network failure in `lang` when it has one, else its message. */
export function jobErrorWords(error: UploadJobView['error'], lang: WordsLanguage): string {
  if (!error) return lang === 'es' ? 'error desconocido.' : 'unknown error.';
  return error.net ? netFailureWords(error.net, lang) : error.message;
}

function inWords(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  if (s < 90) return `${s} s`;
  return `${Math.round(s / 60)} min`;
}

const AFTER: Record<WordsLanguage, Record<AfterFailure, string>> = {
  en: {
    export_changes: ' It is tried again when the export changes or on the next start.',
    window: " Retry it from the window's Uploads screen.",
    none: '',
  },
  es: {
    export_changes: ' Se vuelve a intentar cuando cambie la exportación o en el próximo inicio.',
    window: ' Vuelva a intentarla desde la pantalla Subidas de la ventana.',
    none: '',
  },
};

/** The line for a job waiting to retry after a network fault. */
export function retryingLine(view: UploadJobView, lang: WordsLanguage, now = Date.now()): string {
  const wait = view.retry_at ? inWords(Date.parse(view.retry_at) - now) : null;
  const words = jobErrorWords(view.error, lang);
  if (lang === 'es') return `la subida falló: ${words}${wait ? ` Se reintenta sola en ${wait}.` : ''}`;
  return `upload failed: ${words}${wait ? ` Trying again by itself in ${wait}.` : ''}`;
}

/** The line for a job that keeps failing (it keeps retrying). */
export function strugglingLine(view: UploadJobView, lang: WordsLanguage): string {
  const words = jobErrorWords(view.error, lang);
  return lang === 'es'
    ? `la subida sigue fallando: ${words} Se sigue reintentando sola.`
    : `upload keeps failing: ${words} It keeps retrying by itself.`;
}

/** The line for a job that ended: failed for good, or cancelled. */
export function endedLine(view: UploadJobView, lang: WordsLanguage, after: AfterFailure): string {
  if (view.phase === 'cancelled') return lang === 'es' ? 'subida cancelada.' : 'upload cancelled.';
  const words = jobErrorWords(view.error, lang);
  return `${lang === 'es' ? 'la subida falló' : 'upload failed'}: ${words}${AFTER[lang][after]}`;
}

/**
 * Prints the upload failures of `agent`'s jobs through `say`, each line after `prefix` (the job's
 * export or source; return null to leave a job out).
 */
export function printUploadFailures(
  agent: Pick<Agent, 'activity'>,
  say: (line: string) => void,
  lang: WordsLanguage,
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
