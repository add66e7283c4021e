// The `planned` record that opens a job's journal, for tests of the journal and what is read off it;
// and what a journal on disk records (the exam, the files stored), for tests that kill an upload.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PlannedRecord } from '../../../main/core/upload/journal/journal';

/** A plan of files `f0.dcm`, `f1.dcm`… of `sizes` bytes under `root` (defaults: three files of 10, 11 and 12 bytes in files mode). */
export function plannedRecord(
  o: { root?: string; jobId?: string; mode?: 'files' | 'zip'; sizes?: readonly number[] } = {},
): PlannedRecord {
  const root = o.root ?? '/exports/a';
  const sizes = o.sizes ?? [10, 11, 12];
  const mode = o.mode ?? 'files';
  return {
    t: 'planned',
    v: 1,
    job_id: o.jobId ?? 'job-1',
    at: 1,
    root,
    fields: { name: 'CBCT 2026-03-02', patient_id: '123' },
    requested_mode: mode,
    mode,
    files: sizes.map((size, i) => ({
      name: `f${i}.dcm`,
      path: join(root, `f${i}.dcm`),
      size,
      mtimeMs: 1000.5,
      ino: 7 + i,
    })),
    bytes: sizes.reduce((a, b) => a + b, 0),
    zip_size: 500,
    fingerprint: 'fp',
  };
}

/** The exam the journals under `dataDir` were created on, and how many files they record as stored. */
export function journalState(dataDir: string): { examId: string | null; done: number } {
  const jobs = join(dataDir, 'jobs');
  const out = { examId: null as string | null, done: 0 };
  if (!existsSync(jobs)) return out;
  for (const name of readdirSync(jobs)) {
    if (!name.endsWith('.jsonl')) continue;
    for (const line of readFileSync(join(jobs, name), 'utf8').split('\n')) {
      try {
        const r = JSON.parse(line) as { t: string; exam_id?: string; i?: number[] };
        if (r.t === 'created') out.examId = r.exam_id ?? null;
        if (r.t === 'done') out.done += r.i?.length ?? 0;
      } catch {
        // a torn line
      }
    }
  }
  return out;
}
