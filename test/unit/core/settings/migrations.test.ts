import { describe, expect, it } from 'vitest';
import { migrateSettings, SETTINGS_MIGRATIONS, versionOf } from '@main/core/settings/migrations';
import { SETTINGS_SCHEMA_VERSION } from '@main/core/settings/settings-schema';

describe('settings migrations', () => {
  it('the app’s own steps reach the current schema version', () => {
    const out = migrateSettings({ language: 'es' }, SETTINGS_MIGRATIONS, SETTINGS_SCHEMA_VERSION);
    expect(versionOf(out)).toBe(SETTINGS_SCHEMA_VERSION);
    expect(out['language']).toBe('es');
  });

  it('applies only the steps above the file’s version, in order', () => {
    const log: number[] = [];
    const steps = [3, 1, 2].map((to) => ({ to, migrate: (r: Record<string, unknown>) => (log.push(to), r) }));
    migrateSettings({ schema_version: 1 }, steps, 3);
    expect(log).toEqual([2, 3]);
  });

  it('fails loudly when a step is missing', () => {
    expect(() => migrateSettings({ schema_version: 1 }, [{ to: 3, migrate: (r) => r }], 3)).toThrow(/gap/);
    expect(() => migrateSettings({ schema_version: 1 }, [], 2)).toThrow(/missing/);
  });

  it('reads an absent or odd version as 0', () => {
    expect(versionOf({})).toBe(0);
    expect(versionOf({ schema_version: '2' })).toBe(0);
    expect(versionOf({ schema_version: 2 })).toBe(2);
  });
});
