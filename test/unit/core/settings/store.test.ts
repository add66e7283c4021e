import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SettingsMigration } from '@main/core/settings/migrations';
import { defaultConfigDir, resolveConfigDir } from '@main/core/settings/config-dir';
import { DEFAULT_DICOM_LISTENER, newWatchFolder, SETTINGS_SCHEMA_VERSION } from '@main/core/settings/settings-schema';
import { openSettingsStore, SettingsValidationError } from '@main/core/settings/store';

describe('settings store (conf on disk)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-settings-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const file = () => join(dir, 'settings.json');
  const onDisk = () => JSON.parse(readFileSync(file(), 'utf8')) as Record<string, unknown>;

  it('starts with defaults and writes nothing until something is set', () => {
    const s = openSettingsStore({ cwd: dir });
    expect(s.get().language).toBe('system');
    expect(s.path).toBe(file());
    expect(readdirSync(dir)).toEqual([]);
  });

  it('saves a change with its schema version and reads it back in a new store', () => {
    const a = openSettingsStore({ cwd: dir });
    const folder = newWatchFolder({
      path: '/mnt/pacs/Exportación Ñuñoa',
      exam_type: 'from_dicom',
      mode: 'auto',
      settle_seconds: 20,
      polling: true,
    });
    a.update({
      api_base_url: 'https://api.example.cl/api/v1',
      language: 'es',
      watch_folders: [folder],
      upload: { concurrency: 2 },
    });
    expect(onDisk()['schema_version']).toBe(SETTINGS_SCHEMA_VERSION);
    const b = openSettingsStore({ cwd: dir });
    expect(b.get()).toEqual({
      schema_version: SETTINGS_SCHEMA_VERSION,
      api_base_url: 'https://api.example.cl/api/v1',
      active_key_kind: 'live',
      language: 'es',
      watch_folders: [folder],
      upload: { concurrency: 2, bandwidth_limit_bytes_per_s: 0, mode: 'auto', compress: 'auto' },
      consent: { country_code: 'CL', copies_folder: null, display_id: null },
      inbox: { exam_name_template: '{type} {patient} {date}', default_expiration_days: null },
      dicom_listener: DEFAULT_DICOM_LISTENER,
      handout: { paper: 'A4' },
      network: { proxy_url: null, ca_file: null },
    });
    expect(b.problems).toEqual([]);
  });

  it('refuses an invalid change and leaves the file as it was', () => {
    const s = openSettingsStore({ cwd: dir });
    s.update({ language: 'en' });
    const before = readFileSync(file(), 'utf8');
    expect(() => s.update({ upload: { concurrency: 99 } })).toThrow(SettingsValidationError);
    expect(() => s.update({ api_base_url: 'javascript:alert(1)' })).toThrow(SettingsValidationError);
    expect(readFileSync(file(), 'utf8')).toBe(before);
    expect(s.get().upload.concurrency).toBe(4);
  });

  it('refuses to store anything shaped like an API key', () => {
    const s = openSettingsStore({ cwd: dir });
    const err = (() => {
      try {
        s.update({ watch_folders: [newWatchFolder({ path: '/tmp/cbct_live_0123456789abcdef' })] });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(SettingsValidationError);
  });

  it('returns copies, so a caller cannot change the settings behind the store', () => {
    const s = openSettingsStore({ cwd: dir });
    const copy = s.get();
    copy.watch_folders.push(newWatchFolder({ path: '/x' }));
    expect(s.get().watch_folders).toEqual([]);
  });

  it('tells subscribers about saved changes', () => {
    const s = openSettingsStore({ cwd: dir });
    const seen: string[] = [];
    const off = s.subscribe((x) => seen.push(x.language));
    s.update({ language: 'es' });
    off();
    s.update({ language: 'en' });
    expect(seen).toEqual(['es']);
  });

  it('sets an unreadable file aside and starts from defaults', () => {
    writeFileSync(file(), '{"language": "es", truncated');
    const s = openSettingsStore({ cwd: dir });
    expect(s.get().language).toBe('system');
    expect(s.problems).toContain('unreadable_file');
    expect(readdirSync(dir).some((n) => n.startsWith('settings.corrupt-'))).toBe(true);
  });

  it('repairs bad fields on open, keeping the rest', () => {
    writeFileSync(
      file(),
      JSON.stringify({ schema_version: 1, language: 'es', upload: { concurrency: -3, mode: 'zip' } }),
    );
    const s = openSettingsStore({ cwd: dir });
    expect(s.get().language).toBe('es');
    expect(s.get().upload).toEqual({ concurrency: 4, bandwidth_limit_bytes_per_s: 0, mode: 'zip', compress: 'auto' });
    expect(s.problems).toEqual(['upload.concurrency']);
    expect((onDisk()['upload'] as Record<string, unknown>)['concurrency']).toBe(4);
  });

  it('runs the migration hook on an older file, after keeping a backup of it', () => {
    writeFileSync(file(), JSON.stringify({ schema_version: 1, lang: 'en', apiUrl: 'https://old.example.cl/api/v1' }));
    const migrations: SettingsMigration[] = [
      { to: 1, migrate: (raw) => raw },
      {
        to: 2,
        migrate: ({ lang, apiUrl, ...rest }) => ({ ...rest, language: lang, api_base_url: apiUrl }),
      },
    ];
    const s = openSettingsStore({ cwd: dir, migrations, schemaVersion: 2 });
    expect(s.get().language).toBe('en');
    expect(s.get().api_base_url).toBe('https://old.example.cl/api/v1');
    expect(s.get().schema_version).toBe(2);
    expect(onDisk()['schema_version']).toBe(2);
    expect(onDisk()['lang']).toBeUndefined();
    expect(JSON.parse(readFileSync(`${file()}.v1.bak`, 'utf8'))).toEqual({
      schema_version: 1,
      lang: 'en',
      apiUrl: 'https://old.example.cl/api/v1',
    });
  });

  it('stamps a file written before versions existed with the current version', () => {
    writeFileSync(file(), JSON.stringify({ language: 'es' }));
    const s = openSettingsStore({ cwd: dir });
    expect(s.get().language).toBe('es');
    expect(onDisk()['schema_version']).toBe(SETTINGS_SCHEMA_VERSION);
  });

  it('keeps fields and the version of a file written by a newer app', () => {
    writeFileSync(file(), JSON.stringify({ schema_version: 7, language: 'en', patient_display: { screen: 2 } }));
    const s = openSettingsStore({ cwd: dir });
    expect(s.problems).toContain('newer_version');
    s.update({ language: 'es' });
    expect(onDisk()).toMatchObject({ schema_version: 7, language: 'es', patient_display: { screen: 2 } });
  });
});

describe('settings location', () => {
  it('uses SCANBRIDGE_CONFIG_DIR, else the desktop app’s folder', () => {
    expect(resolveConfigDir({ env: { SCANBRIDGE_CONFIG_DIR: '/tmp/sb-cfg' } })).toBe('/tmp/sb-cfg');
    expect(resolveConfigDir({ cwd: '/explicit', env: { SCANBRIDGE_CONFIG_DIR: '/tmp/sb-cfg' } })).toBe('/explicit');
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '/xdg' }, 'linux', '/home/ana')).toBe('/xdg/ScanBridge');
    expect(defaultConfigDir({}, 'linux', '/home/ana')).toBe('/home/ana/.config/ScanBridge');
    expect(defaultConfigDir({}, 'darwin', '/Users/ana')).toBe('/Users/ana/Library/Application Support/ScanBridge');
    expect(defaultConfigDir({ APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' }, 'win32', 'C:\\Users\\ana')).toMatch(
      /Roaming[\\/]ScanBridge$/,
    );
  });
});
