// One job of the upload queue: what it uploads (its request, fixed once planned), the engine job
// that does it, the view the window shows, and where the job stands in the queue — one state union
// (`QueueState`) from which everything the queue decides is read: whether the job is live, holds
// the line for the next one, was paused by staff, or waits for staff.
// Also the entry's form on disk (upload-list-store.ts) and back, and what the queue is given
// (options, settings) and tells (hooks).
import type { CompressSetting, UploadJobView, UploadPhase } from '../../../../preload/contract';
import type { EngineOptions, UploadJob, UploadResult } from '../../upload/job';
import type { PlanFileInput, RequestedMode } from '../../upload/plan';
import type { ExamFields, ExamsPort } from '../../upload/ports';
import type { Logger } from '../../log';
import type { UploadTarget } from '../../upload/state';
import type { ShareIntent } from '../../upload/journal';
import type { JobRecord } from './upload-list-store';

/** What to upload: a study's files and the exam fields staff confirmed (or the prefill, in auto mode). */
export type UploadRequest = {
  inboxId: string | null;
  source: 'review' | 'auto';
  /** The study's folder: the engine finds an interrupted job of it again by this path. */
  root: string;
  files: PlanFileInput[];
  fields: ExamFields;
  expirationDays: number | null;
  /** What the ledger records once the exam is ready (null: nothing to record). */
  ledger: { study_uid: string; fingerprint: string; files: number; bytes: number } | null;
  /** Set for an extra take of an existing exam (upload/target.ts); absent for a new exam. */
  target?: UploadTarget;
  /** Whom to e-mail the exam once ready (journaled with the upload; see agent/share-on-ready.ts). */
  share?: ShareIntent;
};

export type QueueSettings = {
  concurrency: number;
  bandwidthLimit: number;
  mode: RequestedMode;
  /** Lossless compression in zip mode (absent: never, as before). */
  compress?: CompressSetting;
};

/** What the queue tells the rest of the agent when a job ends. */
export type QueueHooks = {
  onReady(
    view: UploadJobView,
    info: { source: 'review' | 'auto'; ledger: UploadRequest['ledger']; result: UploadResult },
  ): Promise<void> | void;
  /**
   * A final failure or a cancellation (nothing is retried by itself). `superseded`: cancelled
   * because the study's files changed; a new upload of the same inbox item follows at once.
   */
  onEnded(view: UploadJobView, info: { source: 'review' | 'auto'; superseded: boolean }): void;
  /** The job has failed several times in a row on network faults and keeps retrying. */
  onStruggling(view: UploadJobView): void;
  /** The job failed on a network fault and waits to try again by itself (`retry_at`); each time. */
  onRetryWait?(view: UploadJobView): void;
};

export type UploadQueueOptions = {
  file: string;
  dataDir: string;
  /** The engine's view of the service for the key in use, or null when there is none. */
  port: () => ExamsPort | null;
  /** The same for an extra take of an exam (upload/target.ts); without it, takes cannot be queued. */
  targetPort?: (target: UploadTarget, fields: ExamFields) => ExamsPort | null;
  /** Optional finishing touches once an exam is ready: expiry (PATCH) and its viewer link. */
  finish: (examId: string, expirationDays: number | null) => Promise<{ viewer_url: string | null }>;
  settings: () => QueueSettings;
  push: (changed: UploadJobView[]) => void;
  hooks: QueueHooks;
  log: Logger;
  /** Minimum time between two `uploads:state` pushes. */
  batchMs?: number;
  /** Waits before retrying after a network fault: the nth retry waits retryDelaysMs[n] (the last one repeats). */
  retryDelaysMs?: readonly number[];
  /** A run that sends no byte for this long no longer holds the line (quiet-run.ts; default 5 s). */
  quietMs?: number;
  /** Finished jobs kept in the list (the oldest are dropped). */
  keepFinished?: number;
  /** Engine tuning (tests shorten its timers). */
  engine?: Omit<EngineOptions, 'concurrency' | 'bucket' | 'bandwidthLimit'>;
};

/**
 * Why this process itself stops a run: for a shutdown (it resumes on the next start), because
 * another computer took the study over (it waits, paused), or to cancel it — by staff, or because
 * the study's files changed and a new upload replaces it.
 */
export type Halt = 'shutdown' | 'detached' | 'cancel' | 'superseded';

/** Where a job stands in the queue. */
export type QueueState =
  /** Waits for its turn, or for an API key (view: queued). */
  | { kind: 'waiting' }
  /**
   * Its engine run is under way. `paused`: staff paused it, the engine holds its transfers;
   * `troubled`: the run is retrying faults, or has sent nothing for a while, so it no longer holds
   * the line for the next job;
   * `halt`: set when this process is stopping the run on purpose.
   */
  | { kind: 'running'; paused: boolean; troubled: boolean; halt: Halt | null }
  /** Waits to run again by itself after a network fault (view: failed, with retry_at). */
  | { kind: 'retry_wait'; timer: NodeJS.Timeout }
  /** Not running and paused: by staff, or stood down because another computer took the study. */
  | { kind: 'paused'; byUser: boolean }
  /** Failed for good: waits for staff to retry it (view: failed, no retry_at). */
  | { kind: 'needs_staff' }
  /** Ready or cancelled. */
  | { kind: 'over' };

export type Entry = {
  view: UploadJobView;
  state: QueueState;
  job: UploadJob | null;
  /** Stops following the job's events. */
  unsubscribe: (() => void) | null;
  /** The request, while this process knows it (a retry after a final failure plans again from it). */
  request: UploadRequest | null;
  source: 'review' | 'auto';
  root: string;
  expirationDays: number | null;
  ledger: UploadRequest['ledger'];
  /** An extra take of an existing exam, or undefined for a new exam. */
  target: UploadTarget | undefined;
  /** Network faults in a row (the wait before the next retry grows with it). */
  retries: number;
};

export const FINISHED: ReadonlySet<UploadPhase> = new Set(['ready', 'cancelled']);

/** A job that is not over: it runs, waits to run, is paused, or waits to retry. */
export function isLive(s: QueueState): boolean {
  return s.kind !== 'needs_staff' && s.kind !== 'over';
}

/** Staff paused it (running with its transfers held, or stopped). */
export function pausedByStaff(s: QueueState): boolean {
  return (s.kind === 'running' && s.paused) || (s.kind === 'paused' && s.byUser);
}

/** It moves bytes now: the next job waits for it. A paused or struggling run does not hold the line. */
export function holdsTheLine(s: QueueState): boolean {
  return s.kind === 'running' && !s.paused && !s.troubled;
}

/** The job already queued for this request: same inbox item, folder, target and file set. */
export function isSameUpload(e: Entry, request: UploadRequest): boolean {
  if (!request.inboxId || e.view.inbox_id !== request.inboxId || e.root !== request.root) return false;
  if ((e.target?.exam_id ?? null) !== (request.target?.exam_id ?? null)) return false;
  if (request.ledger && e.ledger && request.ledger.fingerprint !== e.ledger.fingerprint) return false;
  // An automatic upload already made its exam: the study is not uploaded twice.
  if (e.view.phase === 'ready' && e.source === 'auto' && request.source === 'auto') return true;
  return isLive(e.state);
}

/** A live job of the same inbox item and folder whose files have changed since: the request replaces it. */
export function isSupersededBy(e: Entry, request: UploadRequest): boolean {
  if (!request.inboxId || !request.ledger || !e.ledger) return false;
  return (
    e.view.inbox_id === request.inboxId &&
    e.root === request.root &&
    isLive(e.state) &&
    e.ledger.fingerprint !== request.ledger.fingerprint
  );
}

/** A new entry for a planned request. */
export function newEntry(view: UploadJobView, request: UploadRequest, job: UploadJob): Entry {
  return {
    view,
    state: { kind: 'waiting' },
    job,
    unsubscribe: null,
    request,
    source: request.source,
    root: request.root,
    expirationDays: request.expirationDays,
    ledger: request.ledger,
    target: request.target,
    retries: 0,
  };
}

/**
 * An entry read back from disk, before its journal is reopened: finished ones stay as they were;
 * an unfinished one (it was running, waiting or retrying when the app stopped) is `resumable`
 * when its engine job could be reopened, and otherwise waits for staff.
 */
export function restoredEntry(rec: JobRecord, reopen: (journal: string) => UploadJob | null): Entry {
  const entry: Entry = {
    view: { ...rec.view, rate: 0, eta_seconds: null, retry_at: null },
    state: { kind: 'over' },
    job: null,
    unsubscribe: null,
    request: null,
    source: rec.source,
    root: rec.root,
    expirationDays: rec.expiration_days,
    ledger: rec.ledger,
    target: rec.target,
    retries: 0,
  };
  if (FINISHED.has(rec.view.phase)) return entry;
  const failedForGood = rec.view.phase === 'failed' && rec.view.error !== null && rec.view.retry_at === null;
  if (failedForGood) return { ...entry, state: { kind: 'needs_staff' } };
  entry.job = rec.journal ? reopen(rec.journal) : null;
  if (entry.job && entry.job.phase !== 'failed' && entry.job.phase !== 'cancelled') {
    entry.state = rec.user_paused ? { kind: 'paused', byUser: true } : { kind: 'waiting' };
    entry.view = { ...entry.view, phase: rec.user_paused ? 'paused' : 'queued', error: null };
  } else {
    entry.state = { kind: 'needs_staff' };
    entry.view = {
      ...entry.view,
      phase: 'failed',
      error: {
        code: 'interrupted',
        message: 'The upload was interrupted and cannot be resumed; retry it from the inbox.',
      },
    };
  }
  return entry;
}

/** The entry as saved on disk. */
export function recordOf(e: Entry): JobRecord {
  return {
    view: e.view,
    journal: e.job?.journalPath ?? null,
    source: e.source,
    root: e.root,
    expiration_days: e.expirationDays,
    ledger: e.ledger,
    user_paused: pausedByStaff(e.state),
    ...(e.target ? { target: e.target } : {}),
  };
}
