// The app's upload queue: upload-engine jobs as the window sees them (UploadJobView), run one at
// a time in order, paused, resumed, cancelled and retried on request, retried by themselves after
// network faults, and restored after a restart (the engine's journal resumes the same exam).
//
// This module schedules runs and carries out staff's controls, which move entries between states;
// the rest of a job's life lives in its own modules of this folder (queue/). They are one module (a
// little over 400 lines) because each control must know what a running job does with it.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { AgentStatus, UploadJobView, UploadPhase } from '../../../../preload/contract';
import { type EngineOptions, type UploadEvent, UploadJob, type UploadResult } from '../../upload/job';
import { UploadError } from '../../upload/ports';
import { type JobPlan, planUpload } from '../../upload/plan';
import { chooseTransport, deflateWorkerCount, holdDeflatePool } from '../../upload/compression';
import { TARGET_ENGINE_OPTIONS, type UploadTarget } from '../../upload/state';
import { uploadLockKeys, withStudyLock } from '../../upload/journal';
import { TokenBucket } from '../../upload/transfer';
import { newJobView, readyView, reduceJobView, replannedView } from './job-view';
import {
  FINISHED,
  type Entry,
  type Halt,
  holdsTheLine,
  isLive,
  isSameUpload,
  isSupersededBy,
  newEntry,
  pausedByStaff,
  type QueueState,
  restoredEntry,
  type UploadQueueOptions,
  type UploadRequest,
} from './queue-entry';
import { lazyPort } from './queue-port';
import { isStruggling, retryWaitMs } from './retry-policy';
import { watchQuietRun } from './quiet-run';
import { jobError } from './job-error';
import { QueueBoard } from './queue-board';
import { ContractFailure } from '../host/contract-host';
import { errorCode } from '../../log';

export type { QueueHooks, QueueSettings, UploadQueueOptions, UploadRequest } from './queue-entry';

/** The upload queue (see the file comment). */
export class UploadQueue {
  private readonly board: QueueBoard;
  private readonly bucket: TokenBucket;
  private closed = false;

  private constructor(private readonly o: UploadQueueOptions) {
    this.board = new QueueBoard(o);
    this.bucket = new TokenBucket(o.settings().bandwidthLimit > 0 ? o.settings().bandwidthLimit : null);
    this.holdDeflateWorkers();
  }

  /** While compression may be chosen, the deflate workers stay up and warm for the next study. */
  private holdDeflateWorkers(): void {
    holdDeflatePool((this.o.settings().compress ?? 'never') !== 'never');
  }

  /** Opens the queue and restores its jobs; unfinished ones resume when a key is available. */
  static async open(options: UploadQueueOptions): Promise<UploadQueue> {
    const q = new UploadQueue(options);
    await q.restore();
    return q;
  }

  /** Every job, newest first. */
  list(): UploadJobView[] {
    return this.board.newestFirst().map((e) => ({ ...e.view }));
  }

  get(id: string): UploadJobView {
    return { ...this.board.get(id).view };
  }

  /** idle, uploading (something runs or waits to), or error (a job failed and waits for staff). */
  status(): AgentStatus {
    return this.board.status();
  }

  /** Calls `listener` whenever `status()` may have changed. */
  onStatus(listener: () => void): () => void {
    return this.board.onStatus(listener);
  }

  /** Applies changed upload settings (the bandwidth limit at once, the rest to the next run). */
  applySettings(): void {
    const limit = this.o.settings().bandwidthLimit;
    this.bucket.setRate(limit > 0 ? limit : null);
    this.holdDeflateWorkers();
  }

  /** Tries to start waiting jobs (after a key was added, say). */
  kick(): void {
    this.pump();
  }

  /**
   * Plans and queues an upload. A job of the same inbox item and file set that is not over is
   * reused (so an interrupted upload resumes its exam instead of creating a second one); a live
   * job of the item's earlier files is cancelled first (its half-made exam is deleted).
   */
  async enqueue(request: UploadRequest): Promise<UploadJobView> {
    await this.supersede(request);
    const existing = this.board.all().find((e) => isSameUpload(e, request));
    if (existing) {
      existing.request = request;
      if (existing.state.kind === 'running') existing.state.halt = null;
      if (existing.state.kind === 'paused' && !existing.state.byUser)
        this.board.moveTo(existing, { kind: 'waiting' }, 'queued');
      this.pump();
      return { ...existing.view };
    }
    const plan = await this.plan(request);
    const job = this.newJob(plan, request);
    const entry = newEntry(newJobView(`up_${randomBytes(8).toString('hex')}`, request, plan), request, job);
    this.attach(entry);
    this.board.add(entry, true);
    this.pump();
    return { ...entry.view };
  }

  /**
   * Stops the live jobs of an inbox item that is not this agent's to finish any more (another
   * computer took its study over): each run stops and the job waits, paused, until the study is
   * offered again.
   */
  async standDown(inboxId: string): Promise<void> {
    if (this.closed) return;
    const items = this.board.all().filter((e) => e.view.inbox_id === inboxId && isLive(e.state));
    await Promise.all(items.map((e) => this.detach(e)));
  }

  pause(id: string): UploadJobView {
    const e = this.board.get(id);
    if (e.view.phase === 'paused') return { ...e.view };
    if (!isLive(e.state)) throw new ContractFailure('conflict', 'This upload is not running.');
    this.stopRetryTimer(e);
    if (e.state.kind === 'running') {
      e.state.paused = true;
      e.job?.pause();
      this.board.setPhase(e, 'paused');
    } else this.board.moveTo(e, { kind: 'paused', byUser: true }, 'paused');
    return { ...e.view };
  }

  resume(id: string): UploadJobView {
    const e = this.board.get(id);
    if (e.view.phase !== 'paused') throw new ContractFailure('conflict', 'This upload is not paused.');
    if (e.state.kind === 'running') {
      e.state.paused = false;
      e.state.halt = null;
      e.job?.resume();
      this.board.setPhase(e, e.view.exam_id ? 'uploading' : 'queued');
    } else {
      this.board.moveTo(e, { kind: 'waiting' }, 'queued');
      this.pump();
    }
    return { ...e.view };
  }

  /** Cancels a job: stops it and removes its half-made exam from the service. */
  cancel(id: string): Promise<UploadJobView> {
    return this.cancelEntry(this.board.get(id), 'cancel');
  }

  /** Runs a failed or cancelled job again: resumes it when it can, else plans it afresh. */
  async retry(id: string, replan: (view: UploadJobView) => Promise<UploadRequest | null>): Promise<UploadJobView> {
    const e = this.board.get(id);
    if (e.view.phase !== 'failed' && e.view.phase !== 'cancelled')
      throw new ContractFailure('conflict', 'Only a failed or cancelled upload can be retried.');
    if (e.state.kind === 'running')
      throw new ContractFailure('conflict', 'This upload is still stopping; try again in a moment.');
    this.stopRetryTimer(e);
    const resumable = e.job !== null && e.job.phase !== 'failed' && e.job.phase !== 'cancelled';
    if (!resumable) {
      const request = e.request ?? (await replan({ ...e.view }));
      if (!request)
        throw new ContractFailure(
          'not_found',
          'The files of this upload are no longer known; upload the study again from the inbox.',
        );
      const plan = await this.plan(request);
      e.unsubscribe?.();
      e.job = this.newJob(plan, request);
      e.target = request.target;
      e.request = request;
      e.ledger = request.ledger;
      e.expirationDays = request.expirationDays;
      e.view = replannedView(e.view, plan);
      this.attach(e);
    }
    e.retries = 0;
    e.view = { ...e.view, error: null, retry_at: null, rate: 0, eta_seconds: null };
    this.board.moveTo(e, { kind: 'waiting' }, 'queued');
    this.pump();
    return { ...e.view };
  }

  /** Drops finished jobs (ready or cancelled) from the list; returns how many. */
  clearFinished(): number {
    const done = this.board.all().filter((e) => FINISHED.has(e.view.phase) && e.state.kind === 'over');
    for (const e of done) e.unsubscribe?.();
    this.board.remove(done.map((e) => e.view.id));
    return done.length;
  }

  /** Stops every run (each resumes on the next start) and saves the list. */
  async close(): Promise<void> {
    this.closed = true;
    const stopping: Promise<void>[] = [];
    for (const e of this.board.all()) {
      // A job waiting to retry keeps its view (failed, with retry_at): the next start runs it again.
      if (e.state.kind === 'retry_wait') clearTimeout(e.state.timer);
      if (e.state.kind === 'running' && e.job) {
        e.state.halt = 'shutdown';
        stopping.push(e.job.stop());
      }
    }
    await Promise.allSettled(stopping);
    await this.board.close();
  }

  /** Waits for pending writes (tests). */
  flush(): Promise<void> {
    return this.board.flush();
  }

  // ---- running ---------------------------------------------------------------------------

  private pump(): void {
    if (this.closed) return;
    // One job moves bytes at a time; a paused job, one that keeps hitting faults, or one that has
    // moved nothing for a while does not hold the line: a stuck upload must not stop the clinic's
    // other studies.
    const all = this.board.oldestFirst();
    if (all.some((e) => holdsTheLine(e.state))) return;
    if (!this.o.port()) return;
    const next = all.find((e) => e.state.kind === 'waiting' && e.job);
    if (next) void this.run(next);
  }

  private async run(e: Entry): Promise<void> {
    const job = e.job;
    if (!job) return;
    const running: QueueState & { kind: 'running' } = { kind: 'running', paused: false, troubled: false, halt: null };
    e.state = running;
    this.board.statusChanged();
    // A run that puts nothing on the network for a while (its storage hangs, say) lets the next job go.
    const stopWatching = watchQuietRun(
      () => e.view,
      () => !running.paused && !running.troubled,
      () => this.troubled(e, running),
      this.o.quietMs,
    );
    let result: UploadResult | undefined;
    let error: unknown;
    try {
      // One upload of a study at a time on this computer; a busy study is retried later.
      result = await withStudyLock(this.o.dataDir, uploadLockKeys(e.root, [e.ledger?.study_uid]), () => job.run());
    } catch (err) {
      error = err;
    } finally {
      stopWatching();
    }
    // `running` is the state object of this run: staff's pause and this process's halt are on it.
    if (result) await this.succeed(e, result);
    else this.fail(e, error, running);
    this.board.statusChanged();
    this.pump();
  }

  private async succeed(e: Entry, result: UploadResult): Promise<void> {
    e.retries = 0;
    e.view = readyView(e.view, e.target ? e.target.exam_id : result.exam_id);
    this.board.moveTo(e, { kind: 'over' }, 'ready');
    // The inbox and the ledger learn at once; the viewer link follows (one more API call).
    try {
      await this.o.hooks.onReady({ ...e.view }, { source: e.source, ledger: e.ledger, result });
    } catch (err) {
      this.o.log.warn('after upload: a hook failed', { job: e.view.id, code: errorCode(err) });
    }
    // A take keeps its exam's expiry and link: nothing to finish.
    if (e.target) return;
    try {
      const extra = await this.o.finish(result.exam_id, e.expirationDays);
      e.view = { ...e.view, viewer_url: extra.viewer_url };
      this.board.changed(e, true);
    } catch (err) {
      this.o.log.warn('exam ready, but its expiry or link could not be set', {
        exam_id: result.exam_id,
        code: errorCode(err),
      });
    }
  }

  /** The run ended without an exam: what comes next depends on why. */
  private fail(e: Entry, err: unknown, ran: { paused: boolean; halt: Halt | null }): void {
    if (ran.halt === 'shutdown') {
      e.state = { kind: 'waiting' };
      return;
    }
    if (ran.halt === 'detached') {
      this.board.moveTo(e, { kind: 'paused', byUser: false }, 'paused');
      return;
    }
    const u =
      err instanceof UploadError
        ? err
        : new UploadError('network', err instanceof Error ? err.message : String(err), true);
    if (u.code === 'cancelled' || ran.halt === 'cancel' || ran.halt === 'superseded' || e.view.phase === 'cancelled') {
      if (e.view.phase !== 'cancelled') this.endWith(e, 'cancelled', null, ran.halt === 'superseded');
      else e.state = { kind: 'over' };
      return;
    }
    if (u.resumable) {
      if (ran.paused) {
        this.board.moveTo(e, { kind: 'paused', byUser: true }, 'paused');
        return;
      }
      // A network fault, a 429 that would not end, the service restarting: try again by itself.
      const wait = retryWaitMs(e.retries, this.o.retryDelaysMs);
      e.retries++;
      e.view = {
        ...e.view,
        error: jobError(u),
        retry_at: new Date(Date.now() + wait).toISOString(),
        rate: 0,
        eta_seconds: null,
      };
      const timer = setTimeout(() => {
        if (e.state.kind !== 'retry_wait' || e.state.timer !== timer) return;
        e.view = { ...e.view, retry_at: null };
        this.board.moveTo(e, { kind: 'waiting' }, 'queued');
        this.pump();
      }, wait);
      timer.unref?.();
      this.board.moveTo(e, { kind: 'retry_wait', timer }, 'failed');
      this.o.hooks.onRetryWait?.({ ...e.view });
      if (isStruggling(e.retries)) this.o.hooks.onStruggling({ ...e.view });
      return;
    }
    this.endWith(e, 'failed', jobError(u));
  }

  private endWith(e: Entry, phase: 'failed' | 'cancelled', error: UploadJobView['error'], superseded = false): void {
    e.view = { ...e.view, error, retry_at: null, rate: 0, eta_seconds: null };
    this.board.moveTo(e, phase === 'failed' ? { kind: 'needs_staff' } : { kind: 'over' }, phase);
    this.o.hooks.onEnded({ ...e.view }, { source: e.source, superseded });
    this.board.statusChanged();
  }

  private async cancelEntry(e: Entry, why: 'cancel' | 'superseded'): Promise<UploadJobView> {
    if (e.view.phase === 'ready')
      throw new ContractFailure(
        'conflict',
        'This exam is already uploaded; delete it in the web app if it is not wanted.',
      );
    if (e.view.phase === 'cancelled') return { ...e.view };
    this.stopRetryTimer(e);
    if (e.state.kind === 'running') e.state.halt = why;
    if (e.job) {
      try {
        await e.job.cancel();
      } catch (err) {
        // The exam could not be removed (service unreachable): the job stays, cancel again later.
        throw err instanceof UploadError ? new ContractFailure(err.code, err.message) : err;
      }
    }
    // The run's outcome may have ended it already (the cancel aborted a running job).
    if ((e.view.phase as UploadPhase) !== 'cancelled') this.endWith(e, 'cancelled', null, why === 'superseded');
    return { ...e.view };
  }

  private async detach(e: Entry): Promise<void> {
    if (e.state.kind === 'running' && e.job) {
      e.state.halt = 'detached';
      await e.job.stop();
    } else if (isLive(e.state)) {
      this.stopRetryTimer(e);
      this.board.moveTo(e, e.state.kind === 'paused' ? e.state : { kind: 'paused', byUser: false }, 'paused');
    }
  }

  /** Follows the engine's events: phases and totals. */
  private attach(e: Entry): void {
    e.unsubscribe?.();
    const job = e.job;
    if (!job) return;
    e.unsubscribe = job.on((ev: UploadEvent) => {
      const next = reduceJobView(e.view, ev, pausedByStaff(e.state));
      e.view = next.view;
      if (next.troubled && e.state.kind === 'running') this.troubled(e, e.state);
      if (ev.type === 'notice') this.o.log.info('upload notice', { job: e.view.id, code: ev.code });
      if (next.phase) this.board.setPhase(e, next.phase);
      else if (next.changed) this.board.changed(e);
    });
  }

  /** The run no longer holds the line (it retries faults, or moves nothing): the next job may start. */
  private troubled(e: Entry, run: QueueState & { kind: 'running' }): void {
    if (run.troubled || e.state !== run) return;
    run.troubled = true;
    this.pump();
  }

  /** A job waiting to retry by itself stops waiting: it now waits for staff (until moved on). */
  private stopRetryTimer(e: Entry): void {
    if (e.state.kind !== 'retry_wait') return;
    clearTimeout(e.state.timer);
    e.state = { kind: 'needs_staff' };
    if (e.view.retry_at) e.view = { ...e.view, retry_at: null };
  }

  /**
   * The study's files changed while an earlier upload of it was unfinished: that upload is
   * cancelled, which deletes its half-made exam on the service, before the new files are planned.
   * Its claim on the share passes to the new upload (onEnded says `superseded`).
   */
  private async supersede(request: UploadRequest): Promise<void> {
    for (const e of this.board.all().filter((x) => isSupersededBy(x, request))) {
      this.o.log.info('upload superseded by changed files; cancelling it', { job: e.view.id });
      try {
        await this.cancelEntry(e, 'superseded');
      } catch (err) {
        this.o.log.warn('upload superseded, but its exam could not be removed yet', {
          job: e.view.id,
          code: errorCode(err),
        });
      }
    }
  }

  private engineOptions(target: UploadTarget | undefined): EngineOptions {
    const s = this.o.settings();
    return {
      concurrency: s.concurrency,
      bucket: this.bucket,
      ...this.o.engine,
      ...(target ? TARGET_ENGINE_OPTIONS : {}),
    };
  }

  /**
   * Plans a request; a take is always sent file by file (the service has no ZIP route for takes).
   * Compression and the mode are then chosen from this computer's measurements (compression-choice.ts).
   */
  private async plan(request: UploadRequest): Promise<JobPlan> {
    const s = this.o.settings();
    const compress = request.target ? 'never' : (s.compress ?? 'never');
    const plan = await planUpload({
      root: request.root,
      fields: request.fields,
      files: request.files,
      mode: request.target ? 'files' : s.mode,
      compress,
    });
    const chosen = await chooseTransport(plan, {
      setting: compress,
      dataDir: this.o.dataDir,
      bandwidthLimit: s.bandwidthLimit > 0 ? s.bandwidthLimit : null,
      concurrency: s.concurrency,
      workers: deflateWorkerCount(),
    });
    if (chosen.plan.compress) this.o.log.info('upload planned compressed', { code: chosen.choice.reason });
    return chosen.plan;
  }

  private newJob(plan: JobPlan, request: UploadRequest): UploadJob {
    const port = lazyPort(this.o, request.target, plan.fields);
    return UploadJob.create(
      plan,
      { port, dataDir: this.o.dataDir, options: this.engineOptions(request.target) },
      request.target,
      request.share,
    );
  }

  // ---- persistence -----------------------------------------------------------------------

  private async restore(): Promise<void> {
    for (const rec of await this.board.read()) {
      const entry = restoredEntry(rec, (journal) => this.reopen(journal, rec.target));
      this.attach(entry);
      this.board.add(entry, false);
    }
    this.pump();
  }

  private reopen(journal: string, target: UploadTarget | undefined): UploadJob | null {
    if (!existsSync(journal)) return null;
    try {
      let opened: UploadJob | null = null;
      opened = UploadJob.open(journal, {
        port: lazyPort(this.o, target, () => opened?.fields),
        dataDir: this.o.dataDir,
        options: this.engineOptions(target),
      });
      return opened;
    } catch (err) {
      this.o.log.warn('upload journal could not be reopened', { code: errorCode(err) });
      return null;
    }
  }
}
