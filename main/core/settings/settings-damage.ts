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
export function settingsDamageWords(damage: SettingsDamageView, lang: 'es' | 'en' = 'en'): string {
  if (lang === 'es')
    return damage.restored
      ? `El archivo de ajustes estaba dañado: se apartó como ${damage.set_aside} y se restauró la última copia buena${damage.copy_of ? ` (guardada el ${damage.copy_of.slice(0, 16).replace('T', ' ')} UTC)` : ''}. Revise las carpetas vigiladas y el receptor DICOM.`
      : `El archivo de ajustes estaba dañado y no había una copia buena: se apartó como ${damage.set_aside} y los ajustes volvieron a sus valores de fábrica. Vuelva a configurar las carpetas vigiladas y el receptor DICOM.`;
  return damage.restored
    ? `The settings file was damaged: it was set aside as ${damage.set_aside} and the last good copy was put back${damage.copy_of ? ` (saved ${damage.copy_of.slice(0, 16).replace('T', ' ')} UTC)` : ''}. Check the watch folders and the DICOM listener.`
    : `The settings file was damaged and no good copy was found: it was set aside as ${damage.set_aside} and the settings are back to their defaults. Set up the watch folders and the DICOM listener again.`;
}
