/** One step of the settings file layout: turns a version `to - 1` file into a version `to` file. */
export type SettingsMigration = {
  to: number;
  migrate: (raw: Record<string, unknown>) => Record<string, unknown>;
};

/**
 * The app's migrations, oldest first. Version 0 is a file written before the layout carried a
 * version; version 1 is the same layout, stamped; version 2 adds `inbox` (the exam-name template
 * and default expiry, which lived in `<data>/agent/preferences.json`: see legacy-preferences.ts,
 * which moves that file's values in).
 */
export const SETTINGS_MIGRATIONS: readonly SettingsMigration[] = [
  { to: 1, migrate: (raw) => ({ ...raw }) },
  { to: 2, migrate: (raw) => ({ ...raw }) },
];

/** The version a raw settings object declares (0 when it declares none). */
export function versionOf(raw: Record<string, unknown>): number {
  const v = raw['schema_version'];
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0;
}

/** Runs the migrations that lead from the file's version up to `target`, in order. */
export function migrateSettings(
  raw: Record<string, unknown>,
  migrations: readonly SettingsMigration[],
  target: number,
): Record<string, unknown> {
  let current = { ...raw };
  let version = versionOf(current);
  for (const m of [...migrations].sort((a, b) => a.to - b.to)) {
    if (m.to <= version || m.to > target) continue;
    if (m.to !== version + 1) throw new Error(`settings migration gap: no step from version ${version} to ${m.to - 1}`);
    current = { ...m.migrate(current), schema_version: m.to };
    version = m.to;
  }
  if (version < target)
    throw new Error(`settings migration missing: the file stops at version ${version}, the app needs ${target}`);
  return current;
}
