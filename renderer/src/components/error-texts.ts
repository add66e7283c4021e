import type { TFunction } from 'i18next';
import type { ErrorCode } from '../../../preload/contract';
import en from '../../locales/en.json';
import es from '../../locales/es.json';

/** The translated title and what-to-do of an error code, falling back to the generic texts. */
export function errorTexts(
  code: string,
  exists: (key: string) => boolean,
  t: TFunction,
): { title: string; action: string } {
  const known = /^[a-z0-9_]+$/.test(code) && exists(`errors.${code}.title`);
  const base = known ? `errors.${code}` : 'errors.unknown';
  return { title: t(`${base}.title`), action: t(`${base}.action`) };
}

// The locale files are typed against the core's codes: a code the core can report without its
// title and action in either language fails the type check here (and the locale test).

type ErrorText = { title: string; action: string };
export const translatedErrors: Record<'en' | 'es', Record<ErrorCode, ErrorText>> = { en: en.errors, es: es.errors };
