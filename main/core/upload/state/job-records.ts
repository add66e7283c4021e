// What a job reads off and writes into its journal, as pure functions: the `planned` record that
// opens a journal, the `created` record of the service's answer (null when the answer lacks the
// links the plan needs), the one-line `summary` a finished journal is compacted to (no file list,
// no patient data), the progress the journal already accounts for, and whether the exam's upload
// links are still good.
import type { JobState } from '../journal/journal-replay';
import type { JournalRecord, PlannedRecord, ShareIntent, SummaryRecord } from '../journal/journal';
import { settingsHash, type JobPlan } from '../plan/plan';
import type { CreatedExam } from '../ports/ports';
import type { UploadTarget } from './target';

/** The record that opens a new job's journal. */
export function plannedRecordOf(
  plan: JobPlan,
  jobId: string,
  target: UploadTarget | undefined,
  share?: ShareIntent,
): PlannedRecord {
  return {
    t: 'planned',
    v: 1,
    job_id: jobId,
    at: Date.now(),
    root: plan.root,
    fields: plan.fields,
    requested_mode: plan.requestedMode,
    mode: plan.mode,
    files: plan.files,
    bytes: plan.bytes,
    zip_size: plan.zipSize,
    fingerprint: plan.fingerprint,
    // Which studies the job holds, so a resumed run can lock them before going on.
    ...(plan.studyUids ? { study_uids: plan.studyUids } : {}),
    ...(target ? { target } : {}),
    ...(share ? { share } : {}),
    ...(plan.compress && plan.mode === 'zip' ? { compress: true } : {}),
    ...(plan.compress && plan.mode === 'zip' && plan.sample ? { sample: plan.sample } : {}),
  };
}

/** Bytes the zip-mode exam is declared with and that go on the wire: the compressed archive's when compressing. */
export function zipWireSize(state: Pick<JobState, 'plan' | 'archive' | 'budget'>): number {
  return state.plan.compress ? (state.archive?.size ?? state.budget ?? state.plan.zip_size) : state.plan.zip_size;
}

/** The `created` record of a create answer, or null when its upload links do not fit the plan. */
export function createdRecordOf(
  plan: PlannedRecord,
  c: CreatedExam,
  gotAt = Date.now(),
): Extract<JournalRecord, { t: 'created' }> | null {
  if (plan.mode === 'files') {
    const urls = c.upload_urls;
    if (!urls || urls.length !== plan.files.length || urls.some((u, i) => u.name !== plan.files[i]?.name)) return null;
    const expires = Math.min(...urls.map((u) => Date.parse(u.expires_at)));
    return {
      t: 'created',
      exam_id: c.id,
      created_at: c.created_at,
      expires_at: Number.isFinite(expires) ? expires : noExpiry(c, gotAt),
      got_at: gotAt,
      urls: urls.map((u) => u.url),
    };
  }
  if (!c.upload_url) return null;
  const expires = Date.parse(c.upload_url.expires_at);
  return {
    t: 'created',
    exam_id: c.id,
    created_at: c.created_at,
    expires_at: Number.isFinite(expires) ? expires : noExpiry(c, gotAt),
    got_at: gotAt,
    zip_url: c.upload_url.url,
  };
}

/** An answer without a readable expiry: an hour from its creation, the service's usual lifetime. */
function noExpiry(c: CreatedExam, gotAt: number): number {
  const created = Date.parse(c.created_at);
  return (Number.isFinite(created) ? created : gotAt) + 3_600_000;
}

/** The summary line of a finished job. */
export function summaryOf(
  plan: PlannedRecord,
  outcome: 'ready' | 'failed' | 'cancelled',
  examId: string | null,
  code?: string,
): SummaryRecord {
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
    ...(plan.share ? { share: plan.share } : {}),
  };
}

/** What the journal already counts as sent: the progress tracker's starting point. */
export function progressBaseline(state: JobState): {
  bytesTotal: number;
  filesTotal: number;
  bytesDone: number;
  filesDone: number;
} {
  const { plan, done, phase } = state;
  const filesTotal = plan.files.length;
  if (plan.mode === 'zip') {
    const sent = phase === 'uploaded' || phase === 'ready';
    const size = zipWireSize(state);
    return {
      bytesTotal: size,
      filesTotal,
      bytesDone: sent ? size : 0,
      filesDone: phase === 'ready' ? filesTotal : 0,
    };
  }
  if (phase === 'ready') return { bytesTotal: plan.bytes, filesTotal, bytesDone: plan.bytes, filesDone: filesTotal };
  let bytesDone = 0;
  for (let i = 0; i < done.length; i++) if (done[i] === 1) bytesDone += plan.files[i]?.size ?? 0;
  return { bytesTotal: plan.bytes, filesTotal, bytesDone, filesDone: state.doneCount };
}

/**
 * True when the exam's upload links have expired or will within a margin (a quarter of their
 * lifetime, at most 60 s). The lifetime is the service's (its expiry less its creation time, both
 * its clock), counted on this computer's clock from when the answer arrived: a local clock days off
 * does not matter. A journal of an older version (no arrival time) compares with the local clock;
 * a link that expired all the same is refused by storage with a 403, which replaces the exam too.
 */
export function linksExpired(exam: JobState['exam'], now = Date.now()): boolean {
  if (!exam) return false;
  const created = Date.parse(exam.createdAt);
  const life = Number.isFinite(created) ? exam.expiresAt - created : 3_600_000;
  const expiresLocal = exam.gotAt !== null && Number.isFinite(created) ? exam.gotAt + life : exam.expiresAt;
  return now >= expiresLocal - Math.min(60_000, Math.max(0, life / 4));
}

/** This computer's clock less the service's (ms), from a create answer's creation time; null when unknown. */
export function clockSkewOf(createdAt: string, gotAt: number): number | null {
  const created = Date.parse(createdAt);
  return Number.isFinite(created) ? gotAt - created : null;
}
