// The command line's words for the API client's errors (the window has its own, translated, in
// renderer/locales). Plain English for the person at the terminal; never the service's own
// message, which may echo submitted patient data.
import type { ApiError } from '../api/api-errors';
import { type ApiErrorCode } from '../api/api-errors';
import { diskFullIn, diskFullWords } from '../disk-full';
import { netFailureWords, type WordsLanguage } from '../net/failure-words';
import { type NetFailure, netFailureBehind } from '../net/net-failure';
import { UploadError } from '../upload/upload-errors';
import { uploadErrorWords } from './upload-words';

function formatWait(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.ceil(seconds))} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

const TEXTS: Record<ApiErrorCode, (e: ApiError) => string> = {
  unauthorized: () => 'The API key was rejected. Check it in Settings.',
  insufficient_scope: () =>
    'This API key is not allowed to do this. Ask the account holder for a key with the right permissions.',
  forbidden: () => 'The service refused this action for this account.',
  not_found: () => 'The item was not found. It may have been deleted.',
  thumbnail_not_ready: () => 'The preview image is not ready yet. Try again in a minute.',
  validation_error: (e) => {
    const fields = [...new Set(e.details.map((d) => d.field))];
    return fields.length > 0
      ? `Some information is not valid (${fields.join(', ')}). Please correct it and try again.`
      : 'Some information is not valid. Please correct it and try again.';
  },
  conflict: () => 'This action does not fit the current state of the item. Refresh and try again.',
  upload_incomplete: (e) => `${e.missing.length || 'Some'} file(s) have not finished uploading yet.`,
  limit_exceeded: () => 'A limit of the account or of the service was reached (exams, storage or size).',
  plan_required: () => "This feature is not included in the account's plan. Ask the account holder to upgrade.",
  rate_limited: (e) => `Too many requests to the service. Try again in ${formatWait(e.retryAfterSeconds)}.`,
  server_error: () => 'The service had a problem. Try again in a few minutes.',
  network_error: () => 'Cannot reach the service. Check the internet connection.',
  timeout: () => 'The service took too long to answer. Try again.',
  aborted: () => 'The operation was cancelled.',
  invalid_response: () => 'The service sent an unexpected answer. Try again later or contact support.',
  http_error: () => 'The service refused the request.',
};

/**
 * What to print for an API error. A network failure that is understood (DNS, proxy login,
 * certificate…) is said in its own words, in the terminal's language.
 */
export function apiErrorText(e: ApiError, lang: WordsLanguage = 'en'): string {
  if (e.netFailure) return netFailureWords(e.netFailure, lang);
  return TEXTS[e.code](e);
}

/** The network failure behind an error, through its causes (an upload's error wraps the API client's). */
export function netFailureIn(err: unknown): NetFailure | null {
  return netFailureBehind(err);
}

const RUN_AGAIN: Record<WordsLanguage, string> = {
  en: 'Then run the upload again to continue.',
  es: 'Luego vuelva a ejecutar la subida para continuar.',
};

/**
 * What `scanbridge upload` prints for the error that stopped it, in the terminal's language: a
 * network failure (DNS, proxy login, certificate, clock…) in its own words, an upload's failure in
 * its code's (upload-words.ts).
 */
export function uploadFailureText(err: Error, lang: WordsLanguage): string {
  const full = diskFullIn(err);
  if (full) return `${diskFullWords(full.folder, full.needed, lang)} ${RUN_AGAIN[lang]}`;
  const net = netFailureIn(err);
  if (net) return `${netFailureWords(net, lang)} ${RUN_AGAIN[lang]}`;
  return err instanceof UploadError ? uploadErrorWords(err, lang) : err.message;
}
