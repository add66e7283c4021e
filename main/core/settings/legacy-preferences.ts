// Before settings version 2 the inbox preferences (exam-name template, default expiry) lived in a
// file of their own, `<data>/agent/preferences.json`. At start-up its values move into the
// settings (only those that are valid, and only once: the file is removed afterwards).
import { readFileSync, unlinkSync } from 'node:fs';
import { z } from 'zod';
import { inboxPreferencesSchema } from './settings-schema';
import type { SettingsStore } from './store';
import { definedFields } from '../defined';

const legacySchema = z.object({
  exam_name_template: inboxPreferencesSchema.shape.exam_name_template.optional().catch(undefined),
  default_expiration_days: inboxPreferencesSchema.shape.default_expiration_days.optional().catch(undefined),
});

/** Moves a legacy preferences file into the settings; returns true when there was one. */
export function importLegacyPreferences(store: SettingsStore, file: string): boolean {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    raw = {}; // Damaged: nothing to keep.
  }
  const old = legacySchema.safeParse(raw);
  if (old.success) {
    const inbox = {
      ...store.get().inbox,
      ...definedFields(old.data, ['exam_name_template', 'default_expiration_days']),
    };
    store.update({ inbox });
  }
  unlinkSync(file);
  return true;
}
