// The upload list on disk (`<state>/uploads.json`): each job's view and what a restart needs to
// resume it (its journal, source, study folder, expiry, ledger key). Read with zod (a damaged
// record is skipped, never trusted), written with the shared atomic writer.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeJsonAtomic } from '../atomic-file';

const phaseSchema = z.enum(['queued', 'planning', 'creating', 'uploading', 'confirming', 'paused', 'ready', 'failed', 'cancelled']);
const viewSchema = z.object({
  id: z.string(),
  inbox_id: z.string().nullable(),
  name: z.string(),
  patient_name: z.string(),
  exam_type: z.enum(['cbct', 'radiografia', 'mesh', 'atm']),
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
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
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
