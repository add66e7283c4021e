// Journal records the job builds from what it learnt, as pure functions: the `created` record of
// the service's answer (null when the answer lacks the links the plan needs), and the one-line
// `summary` a finished journal is compacted to (no file list, no patient data).
import type { JournalRecord, PlannedRecord, SummaryRecord } from './journal';
import { settingsHash } from './plan';
import type { CreatedExam } from './ports';

/** The `created` record of a create answer, or null when its upload links do not fit the plan. */
export function createdRecordOf(plan: PlannedRecord, c: CreatedExam): Extract<JournalRecord, { t: 'created' }> | null {
  if (plan.mode === 'files') {
    const urls = c.upload_urls;
    if (!urls || urls.length !== plan.files.length || urls.some((u, i) => u.name !== plan.files[i]?.name)) return null;
    const expires = Math.min(...urls.map((u) => Date.parse(u.expires_at)));
    return { t: 'created', exam_id: c.id, created_at: c.created_at, expires_at: Number.isFinite(expires) ? expires : Date.now() + 3_600_000, urls: urls.map((u) => u.url) };
  }
  if (!c.upload_url) return null;
  const expires = Date.parse(c.upload_url.expires_at);
  return { t: 'created', exam_id: c.id, created_at: c.created_at, expires_at: Number.isFinite(expires) ? expires : Date.now() + 3_600_000, zip_url: c.upload_url.url };
}

/** The summary line of a finished job. */
export function summaryOf(plan: PlannedRecord, outcome: 'ready' | 'failed' | 'cancelled', examId: string | null, code?: string): SummaryRecord {
  return {
    t: 'summary',
    job_id: plan.job_id,
    root: plan.root,
    fingerprint: plan.fingerprint,
    outcome,
    exam_id: examId,
    files: plan.files.length,
    bytes: plan.bytes,
    mode: plan.mode,
    settings: settingsHash(plan.fields, plan.mode),
    ...(code ? { code } : {}),
    at: Date.now(),
  };
}
