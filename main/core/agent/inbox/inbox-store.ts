// The inbox: studies the watchers found, with the fields staff edit before uploading. Kept in
// `<data>/inbox.json` (rewritten atomically, a moment after each change) so a restart keeps the
// edits; the file holds patient data, so it lives in the app's private data folder and never in logs.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { InboxFields, InboxItem } from '../../../../preload/contract';
import { EXAM_TYPES, INBOX_STATUSES, SHARE_LOCALES } from '../../../../preload/contract/vocabulary';
import { DebouncedSave, writeFileAtomic } from '../../atomic-file';

const examType = z.enum(EXAM_TYPES);

const fieldsSchema = z.object({
  name: z.string().max(200),
  patient_name: z.string().max(200),
  patient_id: z.string().max(64),
  birth_date: z.string().nullable(),
  reason: z.string().max(2000),
  exam_type: examType,
  expiration_days: z.number().int().nullable(),
  // Absent in inboxes of older versions.
  share_to: z.string().max(3300).default(''),
  share_locale: z.enum(SHARE_LOCALES).default('es'),
});

const itemSchema = z.object({
  id: z.string().min(1),
  folder_id: z.string().nullable(),
  export_path: z.string(),
  study_uid: z.string(),
  detected_at: z.string(),
  study_date: z.string().nullable(),
  modality: z.string(),
  description: z.string().nullable(),
  fields: fieldsSchema,
  series: z.array(
    z.object({
      series_uid: z.string(),
      modality: z.string(),
      description: z.string().nullable(),
      files: z.number(),
      bytes: z.number(),
      excluded: z.boolean(),
    }),
  ),
  files: z.number(),
  bytes: z.number(),
  skipped: z.number(),
  // Warnings written by a newer version are dropped rather than failing the whole item.
  warnings: z.array(z.string()).transform((list) => list as InboxItem['warnings']),
  incomplete: z
    .array(z.object({ name: z.string(), reason: z.enum(['cut_short', 'unreadable', 'permission_denied', 'damaged']) }))
    .optional(),
  status: z.enum(INBOX_STATUSES),
  job_id: z.string().nullable(),
  received_from: z
    .object({ calling_aet: z.string().max(16), address: z.string().max(64), sender_stopped: z.boolean() })
    .optional(),
});

const fieldNames = [
  'name',
  'patient_name',
  'patient_id',
  'birth_date',
  'reason',
  'exam_type',
  'expiration_days',
  'share_to',
  'share_locale',
] as const;

const recordSchema = z.object({
  item: itemSchema,
  /** File-set fingerprint of the study when it was last detected. */
  fingerprint: z.string(),
  /** Fields staff changed: a re-detection keeps them. */
  edited: z.array(z.enum(fieldNames)),
});
export type InboxRecord = z.infer<typeof recordSchema>;

const fileSchema = z.object({
  v: z.literal(1),
  records: z.array(z.unknown()),
  /** Studies staff dismissed (id and file set): found again unchanged, they stay out of the inbox. */
  dismissed: z
    .array(z.object({ id: z.string(), fingerprint: z.string() }))
    .catch([])
    .default([]),
});

/** Dismissals remembered (the oldest are forgotten first). */
const MAX_DISMISSED = 5000;

export type FieldName = (typeof fieldNames)[number];

/** In-memory inbox with a debounced, atomic save to disk. */
export class InboxStore {
  private readonly records = new Map<string, InboxRecord>();
  private readonly dismissed = new Map<string, string>();
  private readonly saves: DebouncedSave;

  private constructor(
    readonly file: string,
    saveDelayMs: number,
  ) {
    this.saves = new DebouncedSave(() => this.write(), saveDelayMs);
  }

  /** Loads the inbox file; a missing or unreadable file starts an empty inbox (bad records are dropped). */
  static async open(file: string, saveDelayMs = 150): Promise<InboxStore> {
    const store = new InboxStore(file, saveDelayMs);
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(file, 'utf8')) as unknown;
    } catch {
      return store;
    }
    const parsed = fileSchema.safeParse(raw);
    if (!parsed.success) return store;
    for (const d of parsed.data.dismissed) store.dismissed.set(d.id, d.fingerprint);
    for (const r of parsed.data.records) {
      const rec = recordSchema.safeParse(r);
      if (rec.success) store.records.set(rec.data.item.id, rec.data);
    }
    return store;
  }

  /** Items, newest detection first. */
  list(): InboxItem[] {
    return [...this.records.values()]
      .map((r) => r.item)
      .sort((a, b) => (a.detected_at < b.detected_at ? 1 : a.detected_at > b.detected_at ? -1 : 0));
  }

  get(id: string): InboxRecord | undefined {
    return this.records.get(id);
  }

  /** Inserts or replaces a record, then schedules a save. */
  put(record: InboxRecord): InboxItem {
    this.records.set(record.item.id, record);
    this.scheduleSave();
    return record.item;
  }

  /** Applies staff edits: the fields given, and the series left out. */
  edit(
    id: string,
    fields: Partial<InboxFields> | undefined,
    excluded: readonly string[] | undefined,
  ): InboxItem | undefined {
    const rec = this.records.get(id);
    if (!rec) return undefined;
    const edited = new Set(rec.edited);
    const nextFields = { ...rec.item.fields };
    for (const k of fieldNames) {
      if (fields && k in fields && fields[k] !== undefined) {
        (nextFields as Record<FieldName, unknown>)[k] = fields[k];
        edited.add(k);
      }
    }
    let series = rec.item.series;
    if (excluded) {
      const out = new Set(excluded);
      series = series.map((s) => ({ ...s, excluded: out.has(s.series_uid) }));
    }
    return this.put({ ...rec, edited: [...edited], item: { ...rec.item, fields: nextFields, series } });
  }

  setStatus(id: string, status: InboxItem['status'], jobId: string | null): InboxItem | undefined {
    const rec = this.records.get(id);
    if (!rec) return undefined;
    return this.put({ ...rec, item: { ...rec.item, status, job_id: jobId } });
  }

  remove(id: string): boolean {
    const had = this.records.delete(id);
    if (had) this.scheduleSave();
    return had;
  }

  /** Removes an item and remembers that staff dismissed this file set. */
  dismiss(id: string): boolean {
    const rec = this.records.get(id);
    if (!rec) return false;
    this.dismissed.delete(id);
    this.dismissed.set(id, rec.fingerprint);
    while (this.dismissed.size > MAX_DISMISSED) {
      const oldest = this.dismissed.keys().next().value;
      if (oldest === undefined) break;
      this.dismissed.delete(oldest);
    }
    return this.remove(id);
  }

  /** True when staff dismissed this study with exactly these files. */
  isDismissed(id: string, fingerprint: string): boolean {
    return this.dismissed.get(id) === fingerprint;
  }

  /** Writes now and waits for it (shutdown, tests). */
  async flush(): Promise<void> {
    await this.saves.flush();
  }

  private scheduleSave(): void {
    this.saves.schedule();
  }

  private async write(): Promise<void> {
    const dismissed = [...this.dismissed].map(([id, fingerprint]) => ({ id, fingerprint }));
    const text = JSON.stringify({ v: 1, records: [...this.records.values()], dismissed });
    try {
      await writeFileAtomic(this.file, text);
    } catch {
      // The next change tries again; the inbox in memory stays right meanwhile.
    }
  }
}
