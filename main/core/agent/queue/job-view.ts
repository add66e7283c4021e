// How a job looks in the window, as a pure reducer of the engine's events: totals, exam id and
// phase follow the engine, except the phases the run's outcome sets (ready, failed, cancelled, with
// their error and side effects) and a pause the user asked for.
import type { UploadJobView, UploadPhase } from '../../../../preload/contract';
import type { JobStatus, UploadEvent } from '../../upload/job';
import type { JobPlan } from '../../upload/plan';
import type { ExamFields } from '../../upload/ports';
import type { Totals } from '../../upload/state';

export const ENGINE_PHASE: Record<JobStatus, UploadPhase | null> = {
  planned: 'queued',
  compressing: 'uploading',
  creating: 'creating',
  transferring: 'uploading',
  paused: 'paused',
  confirming: 'confirming',
  ready: 'ready',
  failed: 'failed',
  cancelled: 'cancelled',
  interrupted: null,
};

const withTotals = (view: UploadJobView, t: Totals): UploadJobView => ({
  ...view,
  bytes_total: t.bytesTotal,
  bytes_sent: t.bytesSent,
  files_total: t.filesTotal,
  files_done: t.filesDone,
  rate: t.rate,
  eta_seconds: t.etaSeconds,
  ...(t.compression
    ? {
        compression: {
          state: t.compression.state,
          study_bytes: t.compression.studyBytes,
          study_bytes_done: t.compression.studyBytesDone,
          ratio: t.compression.ratio === null ? null : Math.round(t.compression.ratio * 10) / 10,
        },
      }
    : {}),
});

export type ViewStep = {
  view: UploadJobView;
  /** A phase to move to (null: stay). */
  phase: UploadPhase | null;
  /** Something the window shows changed. */
  changed: boolean;
  /** The run hit a fault it is retrying (a storage PUT, an API call, a 429). */
  troubled: boolean;
};

/** The view after one engine event. */
export function reduceJobView(view: UploadJobView, ev: UploadEvent, userPaused: boolean): ViewStep {
  const troubled =
    (ev.type === 'file' && ev.progress.state === 'retrying') ||
    (ev.type === 'notice' && (ev.code === 'api_retry' || ev.code === 'rate_limited'));
  // A 429 wait shows as an error on a job that is still running; the next movement clears it.
  let v = ev.type !== 'notice' && view.error?.code === 'rate_limited' ? { ...view, error: null } : view;
  switch (ev.type) {
    case 'progress':
      return { view: withTotals(v, ev.totals), phase: null, changed: true, troubled };
    case 'status': {
      v = withTotals(v, ev.totals);
      // A take's events name the take; its view links to the exam it belongs to.
      if (ev.examId) v = { ...v, exam_id: v.extra_take ? v.extra_take.exam_id : ev.examId };
      const phase = ENGINE_PHASE[ev.status];
      const follow =
        phase !== null &&
        phase !== 'ready' &&
        phase !== 'failed' &&
        phase !== 'cancelled' &&
        !(userPaused && phase !== 'paused');
      return { view: v, phase: follow ? phase : null, changed: true, troubled };
    }
    case 'notice':
      if (ev.code === 'rate_limited')
        return {
          view: { ...v, error: { code: 'rate_limited', message: ev.message } },
          phase: null,
          changed: true,
          troubled,
        };
      return { view: v, phase: null, changed: v !== view, troubled };
    case 'file':
      return { view: v, phase: null, changed: v !== view, troubled };
  }
}

/** The view of a job just planned. */
export function newJobView(
  id: string,
  request: { inboxId: string | null; fields: ExamFields; target?: { exam_id: string; label: string } },
  plan: JobPlan,
): UploadJobView {
  const at = new Date().toISOString();
  return {
    id,
    inbox_id: request.inboxId,
    name: request.fields.name,
    patient_name: request.fields.patient_name ?? '',
    exam_type: request.fields.exam_type ?? 'cbct',
    phase: 'queued',
    mode: plan.mode,
    exam_id: null,
    viewer_url: null,
    bytes_total: plan.mode === 'zip' ? plan.zipSize : plan.bytes,
    bytes_sent: 0,
    files_total: plan.files.length,
    files_done: 0,
    rate: 0,
    eta_seconds: null,
    error: null,
    extra_take: request.target
      ? { exam_id: request.target.exam_id, exam_name: request.fields.name, label: request.target.label }
      : null,
    retry_at: null,
    created_at: at,
    updated_at: at,
  };
}

/** The view of a job whose exam is ready (`examId`: for a take, the exam it was added to). */
export function readyView(view: UploadJobView, examId: string): UploadJobView {
  return {
    ...view,
    exam_id: examId,
    bytes_sent: view.bytes_total,
    files_done: view.files_total,
    rate: 0,
    eta_seconds: 0,
    error: null,
    retry_at: null,
  };
}

/** The view of a job planned afresh (a retry after a final failure): nothing sent, no exam yet. */
export function replannedView(view: UploadJobView, plan: JobPlan): UploadJobView {
  return {
    ...view,
    mode: plan.mode,
    exam_id: null,
    viewer_url: null,
    bytes_total: plan.mode === 'zip' ? plan.zipSize : plan.bytes,
    bytes_sent: 0,
    files_total: plan.files.length,
    files_done: 0,
  };
}
