// The agent's settings: the store opened once at start (private folders, older preferences moved
// in), and the view of it the window sees, with the values derived from settings, keys and the
// environment (the language in use, the service's address, the active key).
import { dirname, join } from 'node:path';
import type { KeysStatus, Language, Settings } from '../../../preload/contract';
import { baseUrlOf } from '../credentials';
import { securePrivateFolders } from '../private-fs';
import type { Settings as StoredSettings, SettingsStore } from '../settings';
import { importLegacyPreferences, openSettingsStore, readSettingsDamage } from '../settings';
import { resolveConfigDir } from '../settings/config-dir';
import type { Logger } from '../log';
import type { PrefillSettings } from './inbox/inbox';
import type { KeyManager } from './service/api-keys';
import type { ActivityHub } from './pipeline/agent-activity';
import { RECEIVER_FOLDER_ID } from './pipeline/receivers';
import { shareRuleView } from './share-rule-view';
import { errorCode } from '../log';

/** Opens the settings store, after tightening the private folders; never throws for a damaged file. */
export type SettingsPlace = { dataDir: string; configDir?: string | undefined; env: NodeJS.ProcessEnv; log: Logger };

export function openAgentSettings(o: SettingsPlace): SettingsStore {
  const where = { ...(o.configDir ? { cwd: o.configDir } : {}), env: o.env };
  // Patient data stays private: folders 0700, files 0600, older ones tightened (core/private-fs.ts).
  securePrivateFolders([o.dataDir, resolveConfigDir(where)]);
  const store = openSettingsStore(where);
  if (store.damage)
    o.log.warn('settings: the settings file was damaged and set aside', {
      code: store.damage.restored ? 'last_good_copy_restored' : 'defaults',
    });
  if (store.problems.length > 0)
    o.log.warn('settings: fell back to defaults for some fields', { count: store.problems.length });
  // Settings before version 2 kept the inbox preferences in a file of their own: moved in once.
  try {
    const moved = importLegacyPreferences(store, join(o.dataDir, 'agent', 'preferences.json'));
    if (moved) o.log.info('settings: inbox preferences moved into the settings file');
  } catch (e) {
    o.log.warn('settings: the old inbox preferences could not be moved in', { code: errorCode(e) });
  }
  return store;
}

export type SettingsView = {
  /** The language of the core's own texts: the saved one, or the system's when set to follow it. */
  language(s?: StoredSettings): Language;
  /** The service's address (SCANBRIDGE_API_URL wins over the saved one); '' when none. */
  apiUrl(s: StoredSettings): string;
  /** The saved active key kind, when that key is held; null otherwise. */
  activeKind(s: StoredSettings): 'live' | 'sandbox' | null;
  /** The saved active key's value, when that key is held; null otherwise. */
  activeKey(s: StoredSettings): string | null;
  /** What the inbox's prefill follows: the exam name template, the language, the default expiry. */
  prefill(): PrefillSettings;
  /** The settings as the window sees them. */
  settings(): Settings;
  /** The keys as the window sees them (hints only, never a value). */
  keysStatus(): KeysStatus;
};

export function createSettingsView(o: {
  store: Pick<SettingsStore, 'get' | 'path'>;
  keys: Pick<KeyManager, 'has' | 'slot' | 'keychainState' | 'value'>;
  env: NodeJS.ProcessEnv;
  systemLanguage: Language;
  /** The watchers' activity: folders out of reach are shown with the folders until they are back. */
  activity?: Pick<ActivityHub, 'on'>;
  /** Republishes the settings view when a folder goes out of reach or comes back. */
  emit?: (name: 'settings:changed', view: Settings) => void;
}): SettingsView {
  const unreachable = new Map<string, string>();
  const { store, keys } = o;
  const language = (s: StoredSettings = store.get()): Language =>
    s.language === 'system' ? o.systemLanguage : s.language;
  const apiUrl = (s: StoredSettings): string => baseUrlOf(o.env, s) ?? '';
  const activeKind = (s: StoredSettings): 'live' | 'sandbox' | null =>
    keys.has(s.active_key_kind) ? s.active_key_kind : null;
  const view: SettingsView = {
    language,
    apiUrl,
    activeKind,
    activeKey: (s) => {
      const kind = activeKind(s);
      return kind ? keys.value(kind) : null;
    },
    prefill: () => {
      const s = store.get();
      return {
        template: s.inbox.exam_name_template,
        language: language(s),
        defaultExpirationDays: s.inbox.default_expiration_days,
        shareRule: (folderId: string) =>
          folderId === RECEIVER_FOLDER_ID
            ? (s.dicom_listener.share_rule ?? null)
            : (s.watch_folders.find((f) => f.id === folderId)?.share_rule ?? null),
      };
    },
    settings: () => {
      const s = store.get();
      const p = s.inbox;
      return {
        language: s.language,
        api_base_url: apiUrl(s),
        active_key: activeKind(s),
        watch_folders: s.watch_folders.map((f) => ({
          ...f,
          share_rule: shareRuleView(f.share_rule),
          unreachable_since: unreachable.get(f.id) ?? null,
        })),
        upload: {
          concurrency: s.upload.concurrency,
          bandwidth_limit: s.upload.bandwidth_limit_bytes_per_s,
          mode: s.upload.mode,
          compress: s.upload.compress,
        },
        exam_name_template: p.exam_name_template,
        default_expiration_days: p.default_expiration_days,
        consent: { ...s.consent },
        handout_paper: s.handout.paper,
        damage: readSettingsDamage(dirname(store.path)),
      };
    },
    keysStatus: () => ({
      keychain: keys.keychainState,
      live: keys.slot('live'),
      sandbox: keys.slot('sandbox'),
      active: activeKind(store.get()),
    }),
  };
  const emit = o.emit;
  if (o.activity && emit)
    followUnreachableFolders(o.activity, unreachable, () => emit('settings:changed', view.settings()));
  return view;
}

/**
 * Watch folders out of reach (a share dropped, renamed away), kept in `unreachable` (folder id →
 * since when) from the watchers' activity until they are back; `changed` republishes the settings
 * view, where the window reads them (`watch_folders[].unreachable_since`).
 */
function followUnreachableFolders(
  activity: Pick<ActivityHub, 'on'>,
  unreachable: Map<string, string>,
  changed: () => void,
): void {
  activity.on('folder:lost', (e) => {
    unreachable.set(e.folderId, e.since);
    changed();
  });
  activity.on('folder:appeared', (e) => {
    if (unreachable.delete(e.folderId)) changed();
  });
}
