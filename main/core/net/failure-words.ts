// The words for each network failure, for the command line and the connection check's report: the
// catalogue's `errors.net_<kind>.line`, beside the window's title and action for the same failure.
import { t, type Language } from '../i18n';
import type { NetFailure } from './net-failure';
import type { TrustFileError } from './trust';

/** The sentence for `failure`, in `lang`. */
export function netFailureWords(failure: NetFailure, lang: Language = 'en'): string {
  return t(lang, `errors.net_${failure.kind}.line`, {
    host: failure.host,
    proxy: failure.proxy ?? '',
    code: failure.code,
  });
}

/** The sentence for a CA file that cannot be used, in `lang`. */
export function trustFileWords(e: TrustFileError, lang: Language = 'en'): string {
  return t(lang, `core.trustFile.${e.problem}`, { path: e.path, code: e.code ?? 'error' });
}

/** The terminal's language from LC_ALL / LC_MESSAGES / LANG: Spanish when it starts with `es`. */
export function terminalLanguage(env: NodeJS.ProcessEnv): Language {
  const tag = env['LC_ALL'] || env['LC_MESSAGES'] || env['LANG'] || '';
  return /^es/i.test(tag) ? 'es' : 'en';
}
