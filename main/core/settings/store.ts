import { copyFileSync, existsSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../atomic-file';
import { ensurePrivateDir } from '../private-fs';
import Conf from 'conf';
import { migrateSettings, SETTINGS_MIGRATIONS, type SettingsMigration, versionOf } from './migrations';
import { resolveConfigDir, SETTINGS_FILE_NAME } from './config-dir';
import {
  readSettingsTolerant,
  type Settings,
  type SettingsPatch,
  settingsSchema,
  SETTINGS_SCHEMA_VERSION,
} from './settings-schema';
import { Emitter } from '../emitter';
import type { SettingsDamageView } from '../../../preload/contract';
import { LAST_GOOD_NAME, recordSettingsDamage } from './settings-damage';

export type SettingsStoreOptions = {
  /** Config folder; default SCANBRIDGE_CONFIG_DIR, else the app's own (see paths.ts). */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Overridable for tests of the migration hook. */
  migrations?: readonly SettingsMigration[];
  schemaVersion?: number;
};

export type SettingsListener = (settings: Settings) => void;

/** A settings change that does not fit the schema. */
export class SettingsValidationError extends Error {
  override name = 'SettingsValidationError';
  constructor(readonly issues: { path: string; message: string }[]) {
    super(`Invalid settings: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`);
  }
}

// API keys belong in the keychain; a value shaped like one (pasted into the wrong field) is refused.
const API_KEY_SHAPE = /cbct_(live|test)_[A-Za-z0-9]/;

type RawStore = Record<string, unknown>;

function openConf(cwd: string): Conf<RawStore> {
  return new Conf<RawStore>({
    projectName: 'scanbridge',
    cwd,
    configName: SETTINGS_FILE_NAME,
    accessPropertiesByDotNotation: false,
    clearInvalidConfig: false,
    configFileMode: 0o600,
  });
}

/**
 * The app's settings on disk (conf: atomic JSON writes), validated with zod on every read and
 * write. Files from older versions are migrated (after a backup copy); an unreadable file is set
 * aside and replaced by the last good copy, else by defaults, and said (settings-damage.ts); invalid
 * fields fall back to their defaults and are listed in `problems`.
 */
export class SettingsStore {
  readonly path: string;
  readonly problems: string[] = [];
  /** Set when this opening found the file damaged (settings-damage.ts). */
  damage: SettingsDamageView | null = null;
  private readonly dir: string;
  private readonly conf: Conf<RawStore>;
  private current: Settings;
  /** Top-level keys this version does not know (written by a newer app): kept as they are. */
  private extra: RawStore = {};
  private fileVersion: number;
  /** A failing listener must not undo a saved change. */
  private readonly changes = new Emitter<[Settings]>();

  constructor(options: SettingsStoreOptions = {}) {
    const dir = resolveConfigDir({ cwd: options.cwd, env: options.env });
    const target = options.schemaVersion ?? SETTINGS_SCHEMA_VERSION;
    // The settings name folders and e-mail addresses: their folder (and any parent made for it) is
    // private from the start, before the settings library makes it with the process umask.
    ensurePrivateDir(dir);
    let conf: Conf<RawStore>;
    try {
      conf = openConf(dir);
    } catch {
      // Not JSON (a crash mid-write on a file system without atomic rename, a disk fault, a hand
      // edit): set aside, the last good copy put back where there is one, and said (settings-damage.ts).
      conf = this.recover(dir);
    }
    this.dir = dir;
    this.conf = conf;
    this.path = conf.path;
    let raw: RawStore = { ...conf.store };
    const fresh = Object.keys(raw).length === 0;
    this.fileVersion = fresh ? target : versionOf(raw);
    if (!fresh && this.fileVersion < target) {
      copyFileSync(this.path, `${this.path}.v${this.fileVersion}.bak`);
      raw = migrateSettings(raw, options.migrations ?? SETTINGS_MIGRATIONS, target);
      this.fileVersion = target;
    }
    if (this.fileVersion > target) this.problems.push('newer_version');
    const { settings, problems } = readSettingsTolerant(raw);
    this.problems.push(...problems);
    this.extra = Object.fromEntries(Object.entries(raw).filter(([k]) => !(k in settingsSchema.shape)));
    this.current = { ...settings, schema_version: Math.max(this.fileVersion, target) };
    // A fresh install writes no settings file until something is set (reading only makes the folder).
    if (!fresh && (this.problems.length > 0 || versionOf(conf.store) !== this.current.schema_version))
      this.write(this.current);
    else if (!fresh) this.keepGoodCopy();
  }

  /** The damaged file set aside, the last good copy put back (or defaults), and the damage recorded. */
  private recover(dir: string): Conf<RawStore> {
    const path = join(dir, `${SETTINGS_FILE_NAME}.json`);
    const aside = join(dir, `${SETTINGS_FILE_NAME}.corrupt-${Date.now()}.json`);
    if (existsSync(path)) renameSync(path, aside);
    const copy = join(dir, LAST_GOOD_NAME);
    let copyOf: string | null = null;
    try {
      const text = readFileSync(copy, 'utf8');
      const value: unknown = JSON.parse(text);
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        copyOf = statSync(copy).mtime.toISOString();
        writeFileAtomicSync(path, text, { mode: 0o600 });
      }
    } catch {
      copyOf = null;
    }
    if (copyOf === null) this.problems.push('unreadable_file');
    this.damage = { at: new Date().toISOString(), set_aside: aside, restored: copyOf !== null, copy_of: copyOf };
    recordSettingsDamage(dir, this.damage);
    return openConf(dir);
  }

  /** Keeps a copy of the settings file as it is now (read or written whole), unless it is the same. */
  private keepGoodCopy(): void {
    try {
      const text = readFileSync(this.path, 'utf8');
      const copy = join(this.dir, LAST_GOOD_NAME);
      if (existsSync(copy) && readFileSync(copy, 'utf8') === text) return;
      writeFileAtomicSync(copy, text, { mode: 0o600 });
    } catch {
      // No copy this time: the next read or write tries again.
    }
  }

  /** The current settings (a copy: change them with `update`). */
  get(): Settings {
    return structuredClone(this.current);
  }

  /** Validates and saves a change; returns the new settings. Throws SettingsValidationError. */
  update(patch: SettingsPatch): Settings {
    const next = {
      ...this.current,
      ...patch,
      upload: { ...this.current.upload, ...patch.upload },
      schema_version: this.current.schema_version,
    };
    const parsed = settingsSchema.safeParse(next);
    if (!parsed.success) {
      throw new SettingsValidationError(
        parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      );
    }
    if (API_KEY_SHAPE.test(JSON.stringify(parsed.data))) {
      throw new SettingsValidationError([
        { path: '', message: 'an API key cannot be stored in the settings; it goes to the keychain' },
      ]);
    }
    this.write(parsed.data);
    return this.get();
  }

  /** Calls `listener` after every successful update; returns the unsubscribe function. */
  subscribe(listener: SettingsListener): () => void {
    return this.changes.subscribe(listener);
  }

  private write(settings: Settings): void {
    this.conf.store = { ...this.extra, ...settings };
    this.keepGoodCopy();
    this.current = settings;
    const copy = this.get();
    this.changes.emit(copy);
  }
}

/** Opens the settings store (see SettingsStore). */
export function openSettingsStore(options: SettingsStoreOptions = {}): SettingsStore {
  return new SettingsStore(options);
}
