// The app's upload queue: upload-engine jobs as the window sees them (UploadJobView), run one at
// a time in order, paused, resumed, cancelled and retried on request, retried by themselves after
// network faults, and restored after a restart (the engine's journal resumes the same exam).
// Progress reaches the window through a ChangeBatcher: a 5000-file job produces a few pushes a
// second carrying only the jobs that changed.
//
// Beside it: job-view.ts (the view as a pure reducer of engine events), retry-policy.ts (when a
// job is tried again), upload-list-store.ts (the list on disk). What stays here (over 400 lines)
// is the scheduling of runs and the user's controls (pause, resume, cancel, retry, stand down),
// which all move the same entries.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { UploadJobView, UploadPhase } from '../../../preload/contract';
import { UploadJob } from '../upload/engine';
import type { EngineOptions, UploadEvent, UploadResult } from '../upload/engine';
import { UploadError } from '../upload/errors';
import { planUpload } from '../upload/plan';
import type { JobPlan } from '../upload/plan';
import { TARGET_ENGINE_OPTIONS } from '../upload/target';
import type { UploadTarget } from '../upload/target';
import type { PlanFileInput, RequestedMode } from '../upload/plan';
import type { ExamFields, ExamsPort } from '../upload/ports';
import { uploadLockKeys, withStudyLock } from '../upload/study-lock';
import { TokenBucket } from '../upload/token-bucket';
import { DebouncedSave } from '../atomic-file';
import { ChangeBatcher } from './change-batcher';
import { newJobView, reduceJobView } from './job-view';
import { isStruggling, retryWaitMs } from './retry-policy';
import { readUploadList, writeUploadList } from './upload-list-store';
import type { JobRecord } from './upload-list-store';
import { ContractFailure } from './contract';
import type { Logger } from './contract';

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
};

type Entry = {
  view: UploadJobView;
  /** An extra take of an existing exam, or undefined for a new exam. */
  target: UploadTarget | undefined;
  job: UploadJob | null;
  /** The request, while this process knows it (a retry after a final failure plans again from it). */
  request: UploadRequest | null;
  source: 'review' | 'auto';
  root: string;
  expirationDays: number | null;
  ledger: UploadRequest['ledger'];
  userPaused: boolean;
  running: boolean;
  /** Why this process stopped the run on purpose (so the failure it causes is not reported). */
  halt: 'shutdown' | 'detached' | null;
  retries: number;
  retryTimer: NodeJS.Timeout | undefined;
  unsubscribe: (() => void) | null;
  /** The current run has hit faults it is retrying: it no longer holds the line for the next job. */
  troubled: boolean;
  fingerprint: string | null;
};

export type QueueSettings = { concurrency: number; bandwidthLimit: number; mode: RequestedMode };

/** What the queue tells the rest of the agent when a job ends. */
export type QueueHooks = {
  onReady(view: UploadJobView, info: { source: 'review' | 'auto'; ledger: UploadRequest['ledger']; result: UploadResult }): Promise<void> | void;
  /** A final failure or a cancellation (nothing is retried by itself). */
  onEnded(view: UploadJobView, info: { source: 'review' | 'auto' }): void;
  /** The job has failed several times in a row on network faults and keeps retrying. */
  onStruggling(view: UploadJobView): void;
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
  /** Finished jobs kept in the list (the oldest are dropped). */
  keepFinished?: number;
  /** Engine tuning (tests shorten its timers). */
  engine?: Omit<EngineOptions, 'concurrency' | 'bucket' | 'bandwidthLimit'>;
};


const FINISHED: ReadonlySet<UploadPhase> = new Set(['ready', 'cancelled']);

const now = (): string => new Date().toISOString();

/** The run-time part of a new or restored entry: nothing running, nothing scheduled. */
const idleRun = (): Pick<Entry, 'running' | 'halt' | 'retries' | 'retryTimer' | 'unsubscribe' | 'troubled'> => ({
  running: false,
  halt: null,
  retries: 0,
  retryTimer: undefined,
  unsubscribe: null,
  troubled: false,
});

/** A job that is not over: it runs, waits to run, is paused, or waits to retry. */
function isLive(e: Entry): boolean {
  return e.view.phase !== 'ready' && e.view.phase !== 'cancelled' && !(e.view.phase === 'failed' && e.retryTimer === undefined && !e.running);
}

/** The upload queue (see the file comment). */
export class UploadQueue {
  private readonly entries = new Map<string, Entry>();
  private readonly batcher: ChangeBatcher<UploadJobView>;
  private readonly bucket: TokenBucket;
  private readonly saves = new DebouncedSave(() => this.write(), 300);
  private closed = false;
  private readonly statusListeners = new Set<() => void>();

  private constructor(private readonly o: UploadQueueOptions) {
    this.batcher = new ChangeBatcher({ intervalMs: o.batchMs ?? 250, push: o.push });
    this.bucket = new TokenBucket(o.settings().bandwidthLimit > 0 ? o.settings().bandwidthLimit : null);
  }

  /** Opens the queue and restores its jobs; unfinished ones resume when a key is available. */
  static async open(options: UploadQueueOptions): Promise<UploadQueue> {
    const q = new UploadQueue(options);
    await q.restore();
    return q;
  }

  /** Every job, newest first. */
  list(): UploadJobView[] {
    return [...this.entries.values()].map((e) => ({ ...e.view })).sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  }

  get(id: string): UploadJobView {
    return { ...this.entry(id).view };
  }

  /** idle, uploading (something runs or waits to), or error (a job failed and waits for staff). */
  status(): 'idle' | 'uploading' | 'error' {
    let uploading = false;
    for (const e of this.entries.values()) {
      if (e.view.phase === 'failed' && e.retryTimer === undefined && !e.running) return 'error';
      if (isLive(e)) uploading = true;
    }
    return uploading ? 'uploading' : 'idle';
  }

  /** Calls `listener` whenever `status()` may have changed. */
  onStatus(listener: () => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Applies changed upload settings (the bandwidth limit at once, the rest to the next run). */
  applySettings(): void {
    const limit = this.o.settings().bandwidthLimit;
    this.bucket.setRate(limit > 0 ? limit : null);
  }

  /** Tries to start waiting jobs (after a key was added, say). */
  kick(): void {
    this.pump();
  }

  /**
   * Plans and queues an upload. A job of the same inbox item and file set that is not over is
   * reused (so an interrupted upload resumes its exam instead of creating a second one).
   */
  async enqueue(request: UploadRequest): Promise<UploadJobView> {
    await this.supersede(request);
    const existing = this.findSame(request);
    if (existing) {
      existing.request = request;
      existing.halt = null;
      if (existing.view.phase === 'paused' && !existing.userPaused) this.setPhase(existing, 'queued');
      this.pump();
      return { ...existing.view };
    }
    const plan = await this.plan(request);
    const job = UploadJob.create(plan, { port: this.lazyPort(request.target, plan.fields), dataDir: this.o.dataDir, options: this.engineOptions(request.target) }, request.target);
    const entry: Entry = {
      view: newJobView(`up_${randomBytes(8).toString('hex')}`, request, plan),
      target: request.target,
      job,
      request,
      source: request.source,
      root: request.root,
      expirationDays: request.expirationDays,
      ledger: request.ledger,
      userPaused: false,
      ...idleRun(),
      fingerprint: plan.fingerprint,
    };
    this.attach(entry);
    this.entries.set(entry.view.id, entry);
    this.changed(entry, true);
    this.pump();
    return { ...entry.view };
  }

  /**
   * Stops a job that is not this agent's to finish any more (another computer took its study
   * over): the run stops and the job waits, paused, until the study is offered again.
   */
  async standDown(id: string): Promise<void> {
    const e = this.entries.get(id);
    if (e && !this.closed && isLive(e)) await this.detach(e);
  }

  pause(id: string): UploadJobView {
    const e = this.entry(id);
    if (!isLive(e) || e.view.phase === 'paused') {
      if (e.view.phase === 'paused') return { ...e.view };
      throw new ContractFailure('conflict', 'This upload is not running.');
    }
    e.userPaused = true;
    this.clearRetry(e);
    if (e.running && e.job) e.job.pause();
    this.setPhase(e, 'paused');
    return { ...e.view };
  }

  resume(id: string): UploadJobView {
    const e = this.entry(id);
    if (e.view.phase !== 'paused') throw new ContractFailure('conflict', 'This upload is not paused.');
    e.userPaused = false;
    e.halt = null;
    if (e.running && e.job) {
      e.job.resume();
      this.setPhase(e, e.view.exam_id ? 'uploading' : 'queued');
    } else {
      this.setPhase(e, 'queued');
      this.pump();
    }
    return { ...e.view };
  }

  /** Cancels a job: stops it and removes its half-made exam from the service. */
  async cancel(id: string): Promise<UploadJobView> {
    const e = this.entry(id);
    if (e.view.phase === 'ready') throw new ContractFailure('conflict', 'This exam is already uploaded; delete it in the web app if it is not wanted.');
    if (e.view.phase === 'cancelled') return { ...e.view };
    this.clearRetry(e);
    if (e.job) {
      try {
        await e.job.cancel();
      } catch (err) {
        // The exam could not be removed (service unreachable): the job stays, cancel again later.
        throw err instanceof UploadError ? new ContractFailure(err.code, err.message) : err;
      }
    }
    // The run's outcome may have ended it already (the cancel aborted a running job).
    if ((e.view.phase as UploadPhase) !== 'cancelled') this.endWith(e, 'cancelled', null);
    return { ...e.view };
  }

  /** Runs a failed or cancelled job again: resumes it when it can, else plans it afresh. */
  async retry(id: string, replan: (view: UploadJobView) => Promise<UploadRequest | null>): Promise<UploadJobView> {
    const e = this.entry(id);
    if (e.view.phase !== 'failed' && e.view.phase !== 'cancelled') throw new ContractFailure('conflict', 'Only a failed or cancelled upload can be retried.');
    if (e.running) throw new ContractFailure('conflict', 'This upload is still stopping; try again in a moment.');
    this.clearRetry(e);
    const resumable = e.job !== null && e.job.phase !== 'failed' && e.job.phase !== 'cancelled';
    if (!resumable) {
      const request = e.request ?? (await replan({ ...e.view }));
      if (!request) throw new ContractFailure('not_found', 'The files of this upload are no longer known; upload the study again from the inbox.');
      const plan = await this.plan(request);
      e.unsubscribe?.();
      e.job = UploadJob.create(plan, { port: this.lazyPort(request.target, plan.fields), dataDir: this.o.dataDir, options: this.engineOptions(request.target) }, request.target);
      e.target = request.target;
      e.request = request;
      e.fingerprint = plan.fingerprint;
      e.ledger = request.ledger;
      e.expirationDays = request.expirationDays;
      e.view = { ...e.view, mode: plan.mode, exam_id: null, viewer_url: null, bytes_total: plan.mode === 'zip' ? plan.zipSize : plan.bytes, bytes_sent: 0, files_total: plan.files.length, files_done: 0 };
      this.attach(e);
    }
    e.retries = 0;
    e.userPaused = false;
    e.halt = null;
    e.view = { ...e.view, error: null, retry_at: null, rate: 0, eta_seconds: null };
    this.setPhase(e, 'queued');
    this.pump();
    return { ...e.view };
  }

  /** Drops finished jobs (ready or cancelled) from the list; returns how many. */
  clearFinished(): number {
    let removed = 0;
    for (const [id, e] of this.entries) {
      if (FINISHED.has(e.view.phase) && !e.running) {
        e.unsubscribe?.();
        this.entries.delete(id);
        removed++;
      }
    }
    if (removed > 0) {
      this.scheduleSave();
      this.statusChanged();
    }
    return removed;
  }

  /** Stops every run (each resumes on the next start) and saves the list. */
  async close(): Promise<void> {
    this.closed = true;
    const stopping: Promise<void>[] = [];
    for (const e of this.entries.values()) {
      this.clearRetry(e);
      if (e.running && e.job) {
        e.halt = 'shutdown';
        stopping.push(e.job.stop());
      }
    }
    await Promise.allSettled(stopping);
    this.batcher.close();
    await this.saves.flush();
    await this.write();
  }

  // ---- running ---------------------------------------------------------------------------

  private pump(): void {
    if (this.closed) return;
    // One job moves bytes at a time; a paused job, or one that keeps hitting faults, does not hold
    // the line: a stuck upload must not stop the clinic's other studies.
    const active = [...this.entries.values()].filter((e) => e.running && !e.userPaused && !e.troubled).length;
    if (active > 0) return;
    if (!this.o.port()) return;
    const next = [...this.entries.values()]
      .filter((e) => e.view.phase === 'queued' && !e.running && !e.userPaused && e.job)
      .sort((a, b) => (a.view.created_at < b.view.created_at ? -1 : 1))[0];
    if (next) void this.run(next);
  }

  private async run(e: Entry): Promise<void> {
    const job = e.job;
    if (!job) return;
    e.running = true;
    e.troubled = false;
    e.halt = null;
    this.statusChanged();
    let result: UploadResult | undefined;
    let error: unknown;
    try {
      // One upload of a study at a time on this computer; a busy study is retried later.
      result = await withStudyLock(this.o.dataDir, uploadLockKeys(e.root, [e.ledger?.study_uid]), () => job.run());
    } catch (err) {
      error = err;
    }
    e.running = false;
    e.troubled = false;
    if (result) await this.succeed(e, result);
    else this.fail(e, error);
    this.statusChanged();
    this.pump();
  }

  private async succeed(e: Entry, result: UploadResult): Promise<void> {
    e.retries = 0;
    e.view = {
      ...e.view,
      // A take's result names the take (`<exam>#<index>`); the list links to its exam.
      exam_id: e.target ? e.target.exam_id : result.exam_id,
      bytes_sent: e.view.bytes_total,
      files_done: e.view.files_total,
      rate: 0,
      eta_seconds: 0,
      error: null,
      retry_at: null,
    };
    this.setPhase(e, 'ready');
    // The inbox and the ledger learn at once; the viewer link follows (one more API call).
    try {
      await this.o.hooks.onReady({ ...e.view }, { source: e.source, ledger: e.ledger, result });
    } catch (err) {
      this.o.log.warn(`after upload: ${err instanceof Error ? err.message : String(err)}`);
    }
    // A take keeps its exam's expiry and link: nothing to finish.
    if (e.target) return;
    try {
      const extra = await this.o.finish(result.exam_id, e.expirationDays);
      e.view = { ...e.view, viewer_url: extra.viewer_url };
      this.changed(e, true);
    } catch (err) {
      this.o.log.warn(`exam ${result.exam_id} is ready but its expiry or link could not be set: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private fail(e: Entry, err: unknown): void {
    const halt = e.halt;
    e.halt = null;
    if (halt === 'shutdown') return;
    if (halt === 'detached') {
      this.setPhase(e, 'paused');
      return;
    }
    const u = err instanceof UploadError ? err : new UploadError('network', err instanceof Error ? err.message : String(err), true);
    if (u.code === 'cancelled' || e.view.phase === 'cancelled') {
      if (e.view.phase !== 'cancelled') this.endWith(e, 'cancelled', null);
      return;
    }
    if (u.resumable) {
      if (e.userPaused) {
        this.setPhase(e, 'paused');
        return;
      }
      // A network fault, a 429 that would not end, the service restarting: try again by itself.
      const wait = retryWaitMs(e.retries, this.o.retryDelaysMs);
      e.retries++;
      e.view = { ...e.view, error: { code: u.code, message: u.message }, retry_at: new Date(Date.now() + wait).toISOString(), rate: 0, eta_seconds: null };
      e.retryTimer = setTimeout(() => {
        e.retryTimer = undefined;
        e.view = { ...e.view, retry_at: null };
        this.setPhase(e, 'queued');
        this.pump();
      }, wait);
      e.retryTimer.unref?.();
      this.setPhase(e, 'failed');
      if (isStruggling(e.retries)) this.o.hooks.onStruggling({ ...e.view });
      return;
    }
    this.endWith(e, 'failed', { code: u.code, message: u.message });
  }

  private endWith(e: Entry, phase: 'failed' | 'cancelled', error: { code: string; message: string } | null): void {
    e.view = { ...e.view, error, retry_at: null, rate: 0, eta_seconds: null };
    this.setPhase(e, phase);
    this.o.hooks.onEnded({ ...e.view }, { source: e.source });
    this.statusChanged();
  }

  private async detach(e: Entry): Promise<void> {
    if (e.running && e.job) {
      e.halt = 'detached';
      await e.job.stop();
    } else if (isLive(e)) {
      this.clearRetry(e);
      this.setPhase(e, 'paused');
    }
  }

  /** Follows the engine's events: phases and totals. */
  private attach(e: Entry): void {
    e.unsubscribe?.();
    const job = e.job;
    if (!job) return;
    e.unsubscribe = job.on((ev: UploadEvent) => {
      const next = reduceJobView(e.view, ev, e.userPaused);
      e.view = next.view;
      if (next.troubled && !e.troubled) {
        e.troubled = true;
        this.pump();
      }
      if (ev.type === 'notice') this.o.log.info(`job ${e.view.id}: ${ev.code}`);
      if (next.phase) this.setPhase(e, next.phase);
      else if (next.changed) this.changed(e);
    });
  }

  private setPhase(e: Entry, phase: UploadPhase): void {
    const moved = e.view.phase !== phase;
    e.view = { ...e.view, phase };
    this.changed(e, moved);
    if (moved) this.statusChanged();
  }

  private changed(e: Entry, save = false): void {
    e.view = { ...e.view, updated_at: now() };
    this.batcher.mark(e.view.id, { ...e.view });
    if (save) this.scheduleSave();
  }

  private statusChanged(): void {
    for (const l of this.statusListeners) {
      try {
        l();
      } catch {
        // Tray updates must not break uploads.
      }
    }
  }

  private clearRetry(e: Entry): void {
    if (e.retryTimer) clearTimeout(e.retryTimer);
    e.retryTimer = undefined;
    if (e.view.retry_at) e.view = { ...e.view, retry_at: null };
  }

  /**
   * The study's files changed while an earlier upload of it was unfinished: that upload is
   * cancelled, which deletes its half-made exam on the service, before the new files are planned.
   */
  private async supersede(request: UploadRequest): Promise<void> {
    if (!request.inboxId || !request.ledger) return;
    for (const e of this.entries.values()) {
      if (e.view.inbox_id !== request.inboxId || e.root !== request.root || !isLive(e)) continue;
      if (!e.ledger || e.ledger.fingerprint === request.ledger.fingerprint) continue;
      this.o.log.info(`job ${e.view.id}: superseded by changed files; cancelling it`);
      try {
        await this.cancel(e.view.id);
      } catch (err) {
        this.o.log.warn(`job ${e.view.id}: superseded, but its exam could not be removed yet (${err instanceof Error ? err.name : 'error'})`);
      }
    }
  }

  private findSame(request: UploadRequest): Entry | undefined {
    if (!request.inboxId) return undefined;
    for (const e of this.entries.values()) {
      if (e.view.inbox_id !== request.inboxId || e.root !== request.root) continue;
      if ((e.target?.exam_id ?? null) !== (request.target?.exam_id ?? null)) continue;
      if (request.ledger && e.ledger && request.ledger.fingerprint !== e.ledger.fingerprint) continue;
      if (e.view.phase === 'ready' && e.source === 'auto' && request.source === 'auto') return e;
      if (isLive(e)) return e;
    }
    return undefined;
  }

  private entry(id: string): Entry {
    const e = this.entries.get(id);
    if (!e) throw new ContractFailure('not_found', 'No such upload.');
    return e;
  }

  private engineOptions(target: UploadTarget | undefined): EngineOptions {
    const s = this.o.settings();
    return { concurrency: s.concurrency, bucket: this.bucket, ...this.o.engine, ...(target ? TARGET_ENGINE_OPTIONS : {}) };
  }

  /** Plans a request; a take is always sent file by file (the service has no ZIP route for takes). */
  private plan(request: UploadRequest): Promise<JobPlan> {
    return planUpload({ root: request.root, fields: request.fields, files: request.files, mode: request.target ? 'files' : this.o.settings().mode });
  }

  /** A port that always uses the key in use at the moment of the call (for a take: its exam's). */
  private lazyPort(target?: UploadTarget, fields?: ExamFields | (() => ExamFields | undefined)): ExamsPort {
    const current = (): ExamsPort => {
      const f = typeof fields === 'function' ? fields() : fields;
      if (target && (!this.o.targetPort || !f)) throw new UploadError('rejected', 'Extra takes cannot be uploaded here.');
      const p = target && f && this.o.targetPort ? this.o.targetPort(target, f) : this.o.port();
      if (!p) throw new UploadError('network', 'No API key is in use; the upload waits until one is added.', true);
      return p;
    };
    return {
      createExam: (i, o) => current().createExam(i, o),
      confirmExam: (id, o) => current().confirmExam(id, o),
      processZip: (id, o) => current().processZip(id, o),
      deleteExam: (id, o) => current().deleteExam(id, o),
      getExam: (id, o) => current().getExam(id, o),
      listRecentExams: (n, o) => current().listRecentExams(n, o),
    };
  }

  // ---- persistence -----------------------------------------------------------------------

  private async restore(): Promise<void> {
    for (const rec of await readUploadList(this.o.file)) {
      const entry: Entry = {
        view: { ...rec.view, rate: 0, eta_seconds: null, retry_at: null },
        target: rec.target,
        job: null,
        request: null,
        source: rec.source,
        root: rec.root,
        expirationDays: rec.expiration_days,
        ledger: rec.ledger,
        userPaused: rec.user_paused,
        ...idleRun(),
        fingerprint: null,
      };
      const unfinished = !FINISHED.has(rec.view.phase) && !(rec.view.phase === 'failed' && rec.view.error !== null && rec.view.retry_at === null);
      if (unfinished && rec.journal && existsSync(rec.journal)) {
        try {
          let opened: UploadJob | null = null;
          opened = UploadJob.open(rec.journal, { port: this.lazyPort(rec.target, () => opened?.fields), dataDir: this.o.dataDir, options: this.engineOptions(rec.target) });
          entry.job = opened;
          entry.fingerprint = entry.job.fingerprint;
          this.attach(entry);
        } catch (err) {
          this.o.log.warn(`upload journal could not be reopened: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      if (unfinished) {
        if (entry.job && entry.job.phase !== 'failed' && entry.job.phase !== 'cancelled') {
          entry.view = { ...entry.view, phase: entry.userPaused ? 'paused' : 'queued', error: null };
        } else {
          entry.view = { ...entry.view, phase: 'failed', error: { code: 'interrupted', message: 'The upload was interrupted and cannot be resumed; retry it from the inbox.' } };
        }
      }
      this.entries.set(entry.view.id, entry);
    }
    this.pump();
  }

  private scheduleSave(): void {
    if (!this.closed) this.saves.schedule();
  }

  /** Waits for pending writes (tests). */
  async flush(): Promise<void> {
    await this.saves.flush();
  }

  private async write(): Promise<void> {
    const keep = this.o.keepFinished ?? 200;
    const all = [...this.entries.values()].sort((a, b) => (a.view.created_at < b.view.created_at ? 1 : -1));
    let finished = 0;
    const jobs: JobRecord[] = [];
    for (const e of all) {
      if (FINISHED.has(e.view.phase) && ++finished > keep) continue;
      jobs.push({
        view: e.view,
        journal: e.job?.journalPath ?? null,
        source: e.source,
        root: e.root,
        expiration_days: e.expirationDays,
        ledger: e.ledger,
        user_paused: e.userPaused,
        ...(e.target ? { target: e.target } : {}),
      });
    }
    try {
      await writeUploadList(this.o.file, jobs);
    } catch (err) {
      this.o.log.warn(`upload list not saved: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
