import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language, LanguageSetting } from '../../../preload/contract';
import en from '../../locales/en.json';
import es from '../../locales/es.json';

/** Spanish for any Spanish locale (es, es-CL, es-419…), English otherwise. */
export function languageOfLocale(locale: string | undefined): Language {
  return locale?.toLowerCase().startsWith('es') ? 'es' : 'en';
}

/** The language to show: the setting, or the OS's when the setting is `system` or not known yet. */
export function effectiveLanguage(setting: LanguageSetting | undefined, systemLocale: string | undefined): Language {
  if (setting === 'es' || setting === 'en') return setting;
  return languageOfLocale(systemLocale);
}

/** Starts i18next with both languages bundled (no network: the CSP allows nothing remote). */
export function initI18n(language: Language): typeof i18n {
  void i18n.use(initReactI18next).init({
    resources: { en: { translation: en }, es: { translation: es } },
    lng: language,
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = language;
  return i18n;
}

/** Switches the shown language (and the page's `lang`, which screen readers follow). */
export function applyLanguage(language: Language): void {
  if (i18n.language !== language) void i18n.changeLanguage(language);
  document.documentElement.lang = language;
}
