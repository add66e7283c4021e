// After a create whose answer was lost (crash, time-out, 5xx), the exam it may have made. API v1
// cannot hand out its upload URLs again, so such an exam cannot be filled: the job deletes it and
// creates a fresh one. Matches: same name, patient id, mode and file count, still uploading,
// created after the intent (less the clock skew), and not known to any other job.
import type { PlannedRecord } from '../journal/journal';
import type { ExamSummary } from '../ports/ports';

export function isOrphanOf(e: ExamSummary, plan: PlannedRecord, notBefore: number): boolean {
  return e.status === 'uploading' && looksLikeExamOf(e, plan, notBefore);
}

/** Whether `e`, whatever its status, looks like the exam of this plan made after `notBefore` (the service's clock). */
export function looksLikeExamOf(e: ExamSummary, plan: PlannedRecord, notBefore: number): boolean {
  if (e.name !== plan.fields.name) return false;
  if ((e.patient_id ?? '') !== (plan.fields.patient_id ?? '')) return false;
  if (e.upload_mode !== null && e.upload_mode !== plan.mode) return false;
  if (plan.mode === 'files' && e.file_count !== null && e.file_count !== 0 && e.file_count !== plan.files.length)
    return false;
  const created = Date.parse(e.created_at);
  return !Number.isFinite(created) || created >= notBefore;
}

/** The exams of `recent` that the job's lost create may have made. */
export function findOrphans(
  recent: readonly ExamSummary[],
  plan: PlannedRecord,
  notBefore: number,
  notThese: ReadonlySet<string>,
): ExamSummary[] {
  return recent.filter((e) => isOrphanOf(e, plan, notBefore) && !notThese.has(e.id));
}
