// Inbox preferences that the settings file does not hold yet (the exam-name template and the
// default expiry): a small JSON file in the app data folder, validated on read.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { hasUnsafeText } from '../dicom/clean-text';
import { DEFAULT_NAME_TEMPLATE } from './inbox-prefill';

const schema = z.object({
  // A template with control characters or lone surrogates (a hand-edited file) falls back to the default.
  exam_name_template: z.string().min(1).max(200).refine((t) => !hasUnsafeText(t)).catch(DEFAULT_NAME_TEMPLATE),
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
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.current, null, 2), { mode: 0o600 });
    renameSync(tmp, this.file);
    return this.get();
  }
}
