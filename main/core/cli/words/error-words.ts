// The command line's words for the API client's errors (the window has its own, translated, in
// renderer/locales). Plain words in the terminal's language (English or Spanish); never the service's own
// message, which may echo submitted patient data.
import type { ApiError } from '../../api/http';
import { type CredentialsError, credentialsWords } from '../../credentials';
import { keychainWords, type KeychainUnavailableError } from '../../secrets/keychain-errors';
import { diskFullIn, diskFullWords } from '../../disk-full';
import { netFailureWords } from '../../net/failure-words';
import { t, type Language } from '../../i18n';
import { type NetFailure, netFailureBehind } from '../../net/net-failure';
import { UploadError } from '../../upload/ports';
import { uploadErrorWords } from './upload-words';

function formatWait(seconds: number, lang: Language): string {
  if (seconds < 90) return t(lang, 'cli.api.waitSeconds', { n: Math.max(1, Math.ceil(seconds)) });
  return t(lang, 'cli.api.waitMinutes', { n: Math.ceil(seconds / 60) });
}

/** The words of an API error's code; the few that carry facts fill them in. */
function apiCodeText(e: ApiError, lang: Language): string {
  if (e.code === 'validation_error') {
    const fields = [...new Set(e.details.map((d) => d.field))];
    return fields.length > 0
      ? t(lang, 'cli.api.validation_error', { fields: fields.join(', ') })
      : t(lang, 'cli.api.validation_error_unnamed');
  }
  if (e.code === 'upload_incomplete')
    return e.missing.length
      ? t(lang, 'cli.api.upload_incomplete', { n: e.missing.length })
      : t(lang, 'cli.api.upload_incomplete_unnamed');
  if (e.code === 'rate_limited')
    return t(lang, 'cli.api.rate_limited', { wait: formatWait(e.retryAfterSeconds, lang) });
  return t(lang, `cli.api.${e.code}`);
}

/**
 * What to print for an API error, in the terminal's language. A network failure that is understood
 * (DNS, proxy login, certificate…) is said in its own words.
 */
export function apiErrorText(e: ApiError, lang: Language = 'en'): string {
  if (e.netFailure) return netFailureWords(e.netFailure, lang);
  return apiCodeText(e, lang);
}

/** Missing or unusable credentials, in the terminal's language. */
export function credentialsText(e: CredentialsError, lang: Language): string {
  return credentialsWords(e.code, e.keyKind, lang);
}

/** Why the OS keychain cannot be used, in the terminal's language. */
export function keychainText(e: KeychainUnavailableError, lang: Language): string {
  return keychainWords(e.problem, e.timeoutMs, lang);
}

/** Why a folder given on the command line cannot be used, in the terminal's language. */
export type FolderProblem = { kind: 'not_found' | 'not_folder' | 'unreadable'; path: string; code?: string };

export function folderProblemText(p: FolderProblem, lang: Language): string {
  const denied = p.code === 'EACCES' || p.code === 'EPERM';
  const reason = denied ? t(lang, 'cli.folder.denied') : String(p.code);
  return t(lang, `cli.folder.${p.kind}`, { path: p.path, reason });
}

/** The network failure behind an error, through its causes (an upload's error wraps the API client's). */
export function netFailureIn(err: unknown): NetFailure | null {
  return netFailureBehind(err);
}

/**
 * What `scanbridge upload` prints for the error that stopped it, in the terminal's language: a
 * network failure (DNS, proxy login, certificate, clock…) in its own words, an upload's failure in
 * its code's (upload-words.ts).
 */
export function uploadFailureText(err: Error, lang: Language): string {
  const full = diskFullIn(err);
  if (full) return `${diskFullWords(full.folder, full.needed, lang)} ${t(lang, 'cli.runAgain')}`;
  const net = netFailureIn(err);
  if (net) return `${netFailureWords(net, lang)} ${t(lang, 'cli.runAgain')}`;
  return err instanceof UploadError ? uploadErrorWords(err, lang) : err.message;
}
