// The core's and the command line's texts, from the same catalogue files as the window's:
// `renderer/locales/<lang>/core.json` (the core's words, some of which the window shows too: the
// DICOM listener's problems), `renderer/locales/<lang>/cli.json` (the terminal's own lines), and
// the `errors` part of `renderer/locales/<lang>.json`, where each network failure has the window's
// title and action beside the core's one-line sentence (`errors.net_<kind>.line`). The window loads
// the same files under the same names, so a key here, `core.receive.problem.not_dicom`, is the
// same key there.
//
// One i18next instance per language, made once and initialised synchronously (the resources are
// bundled: nothing to load), so a caller names the language on every call: the command line's
// terminal language and the agent's per-request language live side by side, with no global
// language to switch. Interpolation does not escape: these are terminal lines and PDF texts, never HTML.
import { createInstance, type i18n as I18n } from 'i18next';
import type { Language } from '../../../preload/contract';
// With the JSON attribute: Node's own loader (Playwright's specs import core modules) needs it.
import en from '../../../renderer/locales/en.json' with { type: 'json' };
import enCli from '../../../renderer/locales/en/cli.json' with { type: 'json' };
import enCore from '../../../renderer/locales/en/core.json' with { type: 'json' };
import es from '../../../renderer/locales/es.json' with { type: 'json' };
import esCli from '../../../renderer/locales/es/cli.json' with { type: 'json' };
import esCore from '../../../renderer/locales/es/core.json' with { type: 'json' };

const enErrors = en.errors;
const esErrors = es.errors;

export type { Language } from '../../../preload/contract';

type PluralSuffix = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type Unplural<K extends string> = K extends `${infer Base}_${PluralSuffix}` ? Base : K;
/** Every dotted key of a catalogue tree, plural forms folded into their base key. */
type Keys<T, Prefix extends string> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${Unplural<K>}` : Keys<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** A key of the core's or the command line's catalogue (checked against the English files). */
export type TextKey = Keys<typeof enCore, 'core.'> | Keys<typeof enCli, 'cli.'> | Keys<typeof enErrors, 'errors.'>;

/** The keys under `prefix`, without it: `KeysUnder<'core.handout.'>` is 'title' | 'pin' | … */
export type KeysUnder<Prefix extends string, K extends string = TextKey> = K extends `${Prefix}${infer Rest}`
  ? Rest
  : never;

/** Values put into a text: `{{name}}` placeholders, and `count` for plural forms. */
export type TextValues = Record<string, string | number>;

const resources = {
  en: { translation: { core: enCore, cli: enCli, errors: enErrors } },
  es: { translation: { core: esCore, cli: esCli, errors: esErrors } },
} as const;

const instances = new Map<Language, I18n>();

function instanceFor(lang: Language): I18n {
  let instance = instances.get(lang);
  if (!instance) {
    instance = createInstance();
    void instance.init({
      resources,
      lng: lang,
      fallbackLng: false,
      initAsync: false,
      interpolation: { escapeValue: false },
      returnNull: false,
      returnEmptyString: true,
    });
    instances.set(lang, instance);
  }
  return instance;
}

/**
 * The text of `key` in `lang`, its placeholders filled from `values`. Plural forms follow
 * `_one`/`_other` (i18next reads CLDR's Spanish `many`, for round millions, as `_other`).
 */
export function t(lang: Language, key: TextKey, values?: TextValues): string {
  const i18n = instanceFor(lang);
  return values ? i18n.t(key, values) : i18n.t(key);
}
