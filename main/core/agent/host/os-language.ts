// The language the core speaks when no one names one: the OS's (its texts, OS notifications and
// the tray, are in the catalogue: core.notify, core.tray).
import type { Language } from '../../../../preload/contract';

/** The language from a locale string such as `es-CL` or `en_US.UTF-8` (Spanish or English only). */
export function languageOfLocale(locale: string | undefined): Language {
  return (locale ?? '').toLowerCase().startsWith('es') ? 'es' : 'en';
}

/** The OS language as Node sees it (LANG/LC_ALL, else ICU's default locale). */
export function systemLanguage(env: NodeJS.ProcessEnv = process.env): Language {
  const fromEnv = env['LC_ALL'] || env['LC_MESSAGES'] || env['LANG'];
  return languageOfLocale(
    fromEnv && fromEnv !== 'C' && fromEnv !== 'POSIX' ? fromEnv : Intl.DateTimeFormat().resolvedOptions().locale,
  );
}
