// Inbox preferences that the settings file does not hold yet (the exam-name template and the
// default expiry): a small JSON file in the app data folder, validated on read.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { DEFAULT_NAME_TEMPLATE } from './inbox-prefill';
import { writeFileAtomicSync } from '../atomic-file';

const schema = z.object({
  exam_name_template: z.string().min(1).max(200).catch(DEFAULT_NAME_TEMPLATE),
  default_expiration_days: z.number().int().min(1).max(3650).nullable().catch(null),
});
export type Preferences = z.infer<typeof schema>;

const DEFAULTS: Preferences = { exam_name_template: DEFAULT_NAME_TEMPLATE, default_expiration_days: null };

/** Reads and writes the preferences file; a missing or broken file gives the defaults. */
export class PreferencesStore {
  private current: Preferences;

  constructor(readonly file: string) {
    let raw: unknown = {};
    try {
      raw = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    } catch {
      // First run, or a damaged file: defaults.
    }
    const parsed = schema.safeParse(typeof raw === 'object' && raw !== null ? { ...DEFAULTS, ...raw } : DEFAULTS);
    this.current = parsed.success ? parsed.data : { ...DEFAULTS };
  }

  get(): Preferences {
    return { ...this.current };
  }

  /** Saves a change (atomically: temp file, then rename). */
  update(patch: Partial<Preferences>): Preferences {
    this.current = schema.parse({ ...this.current, ...patch });
    writeFileAtomicSync(this.file, JSON.stringify(this.current, null, 2));
    return this.get();
  }
}
