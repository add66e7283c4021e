import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language, LanguageSetting } from '../../../preload/contract';
import en from '../../locales/en.json';
import es from '../../locales/es.json';

type Tree = { [k: string]: string | Tree };

// Each screen's texts may live in `locales/<lang>/<area>.json`, held under the key `<area>`, so that
// the base files do not grow with every screen (test/support/locales.ts merges them the same way).
// `cli.json` holds the command line's own lines (main/core/i18n): the window has no use for them.
const areaFiles = import.meta.glob<Tree>(['../../locales/*/*.json', '!../../locales/*/cli.json'], {
  eager: true,
  import: 'default',
});

function withAreas(base: Tree, lang: string): Tree {
  const tree: Tree = { ...base };
  for (const [path, texts] of Object.entries(areaFiles)) {
    const m = /\/locales\/([a-z]+)\/([\w-]+)\.json$/.exec(path);
    if (m && m[1] === lang && m[2]) tree[m[2]] = texts;
  }
  return tree;
}

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
    resources: { en: { translation: withAreas(en, 'en') }, es: { translation: withAreas(es, 'es') } },
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
