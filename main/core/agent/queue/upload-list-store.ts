// The upload list on disk (`<state>/uploads.json`): each job's view and what a restart needs to
// resume it (its journal, source, study folder, expiry, ledger key). Read with zod (a damaged
// record is skipped, never trusted), written with the shared atomic writer a moment after the
// last change (`UploadListFile`), and once more when the queue closes.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { EXAM_TYPES } from '../../../../preload/contract/vocabulary';
import { DebouncedSave, writeJsonAtomic } from '../../atomic-file';
import { NET_FAILURE_KINDS } from '../../net/net-failure';
import type { Logger } from '../../log';
import { errorCode } from '../../log';

const phaseSchema = z.enum([
  'queued',
  'planning',
  'creating',
  'uploading',
  'confirming',
  'paused',
  'ready',
  'failed',
  'cancelled',
]);
const viewSchema = z.object({
  id: z.string(),
  inbox_id: z.string().nullable(),
  name: z.string(),
  patient_name: z.string(),
  exam_type: z.enum(EXAM_TYPES),
  phase: phaseSchema,
  mode: z.enum(['files', 'zip']),
  exam_id: z.string().nullable(),
  viewer_url: z.string().nullable(),
  bytes_total: z.number(),
  bytes_sent: z.number(),
  files_total: z.number(),
  files_done: z.number(),
  rate: z.number(),
  eta_seconds: z.number().nullable(),
  error: z
    .object({
      code: z.string(),
      message: z.string(),
      net: z
        .object({
          kind: z.enum(NET_FAILURE_KINDS),
          code: z.string(),
          host: z.string(),
          proxy: z.string().nullable(),
        })
        .optional(),
    })
    .nullable(),
  extra_take: z.object({ exam_id: z.string(), exam_name: z.string(), label: z.string() }).nullish(),
  retry_at: z.string().nullable().catch(null),
  created_at: z.string(),
  updated_at: z.string(),
});
export const recordSchema = z.object({
  view: viewSchema,
  journal: z.string().nullable(),
  source: z.enum(['review', 'auto']),
  root: z.string(),
  expiration_days: z.number().nullable(),
  ledger: z.object({ study_uid: z.string(), fingerprint: z.string(), files: z.number(), bytes: z.number() }).nullable(),
  user_paused: z.boolean(),
  /** An extra take of an existing exam (upload/target.ts). */
  target: z.object({ kind: z.literal('extra'), exam_id: z.string().min(1), label: z.string().min(1) }).optional(),
});
export type JobRecord = z.infer<typeof recordSchema>;

/** The saved jobs; none when the file is missing or not the expected shape. */
export async function readUploadList(file: string): Promise<JobRecord[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch {
    return [];
  }
  const list = z.object({ v: z.literal(1), jobs: z.array(z.unknown()) }).safeParse(raw);
  if (!list.success) return [];
  return list.data.jobs.flatMap((item) => {
    const r = recordSchema.safeParse(item);
    return r.success ? [r.data] : [];
  });
}

export function writeUploadList(file: string, jobs: readonly JobRecord[]): Promise<void> {
  return writeJsonAtomic(file, { v: 1, jobs });
}

const FINISHED_PHASES: ReadonlySet<string> = new Set(['ready', 'cancelled']);

/**
 * The queue's file: `records` gives every job newest first; at most `keepFinished` finished ones
 * (ready or cancelled) are written, the oldest dropped. A failed write is logged and tried again
 * at the next change: the queue goes on.
 */
export class UploadListFile {
  private readonly saves = new DebouncedSave(() => this.write(), 300);
  private closed = false;

  constructor(
    private readonly o: { file: string; records: () => JobRecord[]; keepFinished?: number | undefined; log: Logger },
  ) {}

  read(): Promise<JobRecord[]> {
    return readUploadList(this.o.file);
  }

  /** Saves a moment after the last call. */
  schedule(): void {
    if (!this.closed) this.saves.schedule();
  }

  /** Waits for a pending save. */
  flush(): Promise<void> {
    return this.saves.flush();
  }

  /** Writes the list a last time; later changes are not saved. */
  async close(): Promise<void> {
    this.closed = true;
    await this.saves.flush();
    await this.write();
  }

  private async write(): Promise<void> {
    const keep = this.o.keepFinished ?? 200;
    let finished = 0;
    const jobs = this.o.records().filter((r) => !(FINISHED_PHASES.has(r.view.phase) && ++finished > keep));
    try {
      await writeUploadList(this.o.file, jobs);
    } catch (err) {
      this.o.log.warn('upload list not saved', { code: errorCode(err) });
    }
  }
}
