import type { TFunction } from 'i18next';

/** The translated title and what-to-do of an error code, falling back to the generic texts. */
export function errorTexts(code: string, exists: (key: string) => boolean, t: TFunction): { title: string; action: string } {
  const known = /^[a-z0-9_]+$/.test(code) && exists(`errors.${code}.title`);
  const base = known ? `errors.${code}` : 'errors.unknown';
  return { title: t(`${base}.title`), action: t(`${base}.action`) };
}
