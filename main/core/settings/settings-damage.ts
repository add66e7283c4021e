// A settings file found damaged (not JSON: a crash on a file system without atomic rename, a disk
// fault, a hand edit) is never lost without a word. The store keeps a copy of the last settings
// it read or wrote whole (`settings.last-good.json`); a damaged file is set aside
// (`settings.corrupt-<ms>.json`), the last good copy put back where there is one, and what
// happened is written to `settings.damaged.json`, so that every front end says it: the command
// line when it happens, the window until staff have read it.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { SettingsDamageView } from '../../../preload/contract';
import { writeFileAtomicSync } from '../atomic-file';
import { Emitter } from '../emitter';
import { PRIVATE_FILE_MODE } from '../private-fs';
import { t, type Language } from '../i18n';

/** What `settings.damaged.json` holds: the contract's SettingsDamageView, as the window shows it. */
const damageSchema = z.object({
  at: z.string(),
  set_aside: z.string(),
  restored: z.boolean(),
  copy_of: z.string().nullable(),
}) satisfies z.ZodType<SettingsDamageView>;

export const LAST_GOOD_NAME = 'settings.last-good.json';
const DAMAGE_NAME = 'settings.damaged.json';

/** Told in this process whenever a settings file is found damaged (the command line prints it). */
export const settingsDamageFound = new Emitter<[SettingsDamageView]>();

/** What the last damage found in `configDir` was, until it is dismissed; null when none. */
export function readSettingsDamage(configDir: string): SettingsDamageView | null {
  try {
    const parsed = damageSchema.safeParse(JSON.parse(readFileSync(join(configDir, DAMAGE_NAME), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function recordSettingsDamage(configDir: string, damage: SettingsDamageView): void {
  try {
    writeFileAtomicSync(join(configDir, DAMAGE_NAME), JSON.stringify(damage), { mode: PRIVATE_FILE_MODE });
  } catch {
    // Said on this run all the same (the emitter); the window may not hear of it.
  }
  settingsDamageFound.emit(damage);
}

/** Staff have read the notice. */
export function dismissSettingsDamage(configDir: string): void {
  rmSync(join(configDir, DAMAGE_NAME), { force: true });
}

/** The sentence for `damage`, in `lang`. */
export function settingsDamageWords(damage: SettingsDamageView, lang: Language = 'en'): string {
  if (!damage.restored) return t(lang, 'core.settingsDamage.reset', { setAside: damage.set_aside });
  const saved = damage.copy_of
    ? t(lang, 'core.settingsDamage.savedAt', { at: damage.copy_of.slice(0, 16).replace('T', ' ') })
    : '';
  return t(lang, 'core.settingsDamage.restored', { setAside: damage.set_aside, saved });
}
