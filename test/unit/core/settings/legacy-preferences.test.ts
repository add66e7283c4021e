// Settings version 2 holds the inbox preferences that used to live in <data>/agent/preferences.json:
// a version 1 settings file and an old preferences file become one version 2 settings file.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startAgent } from '@main/core/agent';
import { MemorySecretStore } from '@main/core/secrets';
import { importLegacyPreferences, openSettingsStore, SETTINGS_SCHEMA_VERSION } from '@main/core/settings';

const scratch = mkdtempSync(join(tmpdir(), 'sb-legacy-prefs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('legacy inbox preferences', () => {
  it('move into a version 2 settings file once, keeping the rest of a version 1 file', async () => {
    const configDir = join(scratch, 'config');
    const dataDir = join(scratch, 'data');
    mkdirSync(configDir, { recursive: true });
    mkdirSync(join(dataDir, 'agent'), { recursive: true });
    const settingsFile = join(configDir, 'settings.json');
    writeFileSync(
      settingsFile,
      JSON.stringify({ schema_version: 1, language: 'es', api_base_url: 'https://api.example.org/v1' }),
    );
    const legacy = join(dataDir, 'agent', 'preferences.json');
    writeFileSync(legacy, JSON.stringify({ exam_name_template: '{patient} – {type}', default_expiration_days: 30 }));

    const agent = await startAgent({
      dataDir,
      configDir,
      env: {},
      secretStore: new MemorySecretStore(),
      transport: 'ipc',
      systemLanguage: 'en',
      log: quiet,
    });
    try {
      expect(await agent.host.call('settings:get', {})).toMatchObject({
        language: 'es',
        exam_name_template: '{patient} – {type}',
        default_expiration_days: 30,
      });
      // A change goes to the settings file; the old file is gone and stays gone.
      await agent.host.call('settings:update', { default_expiration_days: 60 });
    } finally {
      await agent.stop();
    }
    expect(existsSync(legacy)).toBe(false);
    const saved = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({
      schema_version: SETTINGS_SCHEMA_VERSION,
      language: 'es',
      api_base_url: 'https://api.example.org/v1',
      inbox: { exam_name_template: '{patient} – {type}', default_expiration_days: 60 },
    });
    expect(SETTINGS_SCHEMA_VERSION).toBe(2);
  });

  it('keeps the valid values of a damaged file and the defaults for the rest', () => {
    const configDir = join(scratch, 'config-bad');
    const file = join(scratch, 'bad-preferences.json');
    writeFileSync(file, JSON.stringify({ exam_name_template: '', default_expiration_days: 45 }));
    const store = openSettingsStore({ cwd: configDir, env: {} });
    expect(importLegacyPreferences(store, file)).toBe(true);
    expect(store.get().inbox).toEqual({ exam_name_template: '{type} {patient} {date}', default_expiration_days: 45 });
    expect(importLegacyPreferences(store, file)).toBe(false);
  });
});
