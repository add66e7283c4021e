// The upload engine: one job per exam, driven from its journal through
//   plan → create exam → transfer → confirm (files mode) or process-zip (zip mode).
// Every step is journaled before or after it happens (see journal.ts), so a job can be resumed
// after any crash without creating a second exam. UI code only listens to the events.
//
// This module is the job's public handle (getters, events, pause/resume/stop/cancel) and its state
// loop. Beside it: exam-steps.ts (create, orphan removal, link expiry, confirm, failure and cancel —
// the steps that talk to the service), file-transfer.ts and zip-transfer.ts (the transfers),
// engine-types.ts (vocabulary), failures.ts (failure mapping), orphans.ts (orphan search),
// job-records.ts (records and progress read off the journal), file-checks.ts.
import { AlreadyComplete, ControlSignal, ENGINE_DEFAULTS, FRESH_PLAN_MS, UrlsExpired } from '../state/engine-types';
import type {
  EngineOptions,
  JobDeps,
  JobStatus,
  NoticeCode,
  NoticeParams,
  UploadEvent,
  UploadResult,
} from '../state/engine-types';
import { UploadError } from '../ports/upload-errors';
import { type EngineSettings, ExamSteps } from './exam-steps';
import { transferFailureOf } from './failures';
import { checkFile } from './file-checks';
import { sendFiles } from './file-transfer';
import { Gate } from '../state/gate';
import { type JobState, replayDamaged, replayJournal, initialState } from '../journal/journal-replay';
import { newJournalPath, setDamagedJournalsAside } from '../state/job-store';
import { Journal, type PlannedRecord, type ShareIntent } from '../journal/journal';
import type { JobPlan } from '../plan/plan';
import { validateFields } from '../plan/plan';
import type { ExamsPort, UploadMode } from '../ports';
import { ProgressTracker, type Totals } from '../state/progress';
import type { UploadTarget } from '../state/target';
import { TokenBucket } from '../transfer/token-bucket';
import { linksExpired, plannedRecordOf, progressBaseline } from '../state/job-records';
import { createAgents, type putWithRetry, type TransferAgents } from '../transfer/transfer';
import type { TransferContext } from './transfer-context';
import { sendZip } from './zip-transfer';
import { ArchiveOverBudget, JobArchive, removeArchive } from './archive';
import { effectiveLinkRate } from '../compression/compression-choice';
import { readLinkRates, recordUploadRate } from '../compression/link-rate';
import { Emitter } from '../../emitter';
import { noticeWords } from '../state/notice-words';

export type {
  EngineOptions,
  FileProgress,
  JobDeps,
  JobStatus,
  NoticeCode,
  NoticeParams,
  UploadEvent,
  UploadResult,
} from '../state/engine-types';

/** The statuses of a step at work, as opposed to paused or ended. */
const WORKING_STATUSES: ReadonlySet<JobStatus> = new Set(['compressing', 'creating', 'transferring', 'confirming']);

/** One upload job (one exam). Create with `UploadJob.create` or reopen with `UploadJob.open`. */
export class UploadJob {
  /** A listener's bug must not break the upload. */
  private readonly events = new Emitter<[UploadEvent]>();
  private readonly opts: EngineSettings;
  private readonly bucket: TokenBucket;
  private readonly tracker: ProgressTracker;
  private readonly gate = new Gate();
  private readonly inflight = new Set<AbortController>();
  private readonly steps: ExamSteps;
  private runAbort: AbortController | null = null;
  private running: Promise<UploadResult> | null = null;
  private lastStatus: JobStatus | null = null;
  private lastTotals = '';
  private lastTickAt = Number.NEGATIVE_INFINITY;
  /** Compressed zip mode: the archive sent instead of the files (archive.ts). */
  private readonly archive: JobArchive;
  /** What the job is doing when not paused (resume() reports it again). */
  private working: JobStatus = 'transferring';
  private pauses = 0;

  private constructor(
    private readonly journal: Journal,
    private readonly state: JobState,
    port: ExamsPort,
    private readonly dataDir: string,
    options: EngineOptions,
    private readonly resumedJob: boolean,
  ) {
    // An option given as undefined leaves its default in place.
    const defined = Object.fromEntries(
      Object.entries(options).filter(([, v]) => v !== undefined),
    ) as Partial<EngineOptions>;
    this.opts = { ...ENGINE_DEFAULTS, ...defined };
    this.bucket = options.bucket ?? new TokenBucket(options.bandwidthLimit ?? null);
    this.tracker = new ProgressTracker(0, 0);
    this.steps = new ExamSteps(journal, state, port, dataDir, this.opts, {
      emitStatus: (status) => this.emitStatus(status),
      notice: (code, message, params) => this.notice(code, message, params),
      resetProgress: () => this.resetTracker(),
    });
    this.resetTracker();
    this.archive = new JobArchive(
      {
        state,
        dataDir,
        append: (r) => this.steps.append(r),
        waitIfPaused: (signal) => (this.gate.isClosed ? this.gate.wait(signal) : Promise.resolve()),
        checkFiles: (indices) => this.checkFiles(indices),
        tracker: this.tracker,
        linkRate: () => effectiveLinkRate(readLinkRates(dataDir).upload_bytes_per_s, this.bucket.bytesPerSecond),
        emitStatus: (status) => this.emitStatus(status),
        resetProgress: () => this.resetTracker(),
        progressed: () => this.tickIfDue(),
        notice: (message, params) => this.notice('resumed', message, params),
      },
      resumedJob,
    );
  }

  /** Starts a new job for a plan: writes its journal (nothing is sent yet). */
  static create(plan: JobPlan, deps: JobDeps, target?: UploadTarget, share?: ShareIntent): UploadJob {
    validateFields(plan.fields);
    const { path, jobId } = newJournalPath(deps.dataDir, plan.root);
    // Journals of this folder too damaged to name their job: moved aside, and this job looks on
    // the service for what they made before it creates anything (never a silent second exam).
    const since = target ? null : setDamagedJournalsAside(deps.dataDir, plan.root);
    const planned = {
      ...plannedRecordOf(plan, jobId, target, share),
      ...(since !== null ? { recover_since: since } : {}),
    };
    const journal = Journal.create(path, planned, { doneFlushMs: deps.options?.doneFlushMs });
    return new UploadJob(journal, initialState(planned), deps.port, deps.dataDir, deps.options ?? {}, false);
  }

  /** Reopens a job from its journal (after a crash, an interruption or a restart of the app). */
  static open(path: string, deps: JobDeps): UploadJob {
    const { journal, records, lines, damage } = Journal.open(path, { doneFlushMs: deps.options?.doneFlushMs });
    const state = damage ? replayDamaged(records, lines, damage) : replayJournal(records);
    const job = new UploadJob(journal, state, deps.port, deps.dataDir, deps.options ?? {}, true);
    // Ended, but the process died before the journal was compacted: finish that now.
    if (state.phase === 'ready') job.steps.compact('ready', state.readyExamId);
    else if (state.phase === 'failed') job.steps.compact('failed', null, state.failure?.code);
    else if (state.phase === 'cancelled') job.steps.compact('cancelled', null);
    job.dropArchiveIfEnded();
    return job;
  }

  get jobId(): string {
    return this.state.plan.job_id;
  }

  get journalPath(): string {
    return this.journal.path;
  }

  get examId(): string | null {
    return this.state.exam?.id ?? this.state.readyExamId;
  }

  /** The journaled step: where a run starts from. */
  get phase(): JobState['phase'] {
    return this.state.phase;
  }

  get mode(): UploadMode {
    return this.state.plan.mode;
  }

  get fields(): PlannedRecord['fields'] {
    return this.state.plan.fields;
  }

  /** Where the files go: undefined for a new exam, else an extra take (target.ts). */
  get target(): UploadTarget | undefined {
    return this.state.plan.target;
  }

  /** Whom the exam is e-mailed to once ready (journaled with the plan), if anyone. */
  get shareIntent(): ShareIntent | undefined {
    return this.state.plan.share;
  }

  get fingerprint(): string {
    return this.state.plan.fingerprint;
  }

  get fileCount(): number {
    return this.state.plan.files.length;
  }

  get totalBytes(): number {
    return this.state.plan.bytes;
  }

  /** Files already stored on the current exam. */
  get filesDone(): number {
    return this.state.doneCount;
  }

  get isPaused(): boolean {
    return this.gate.isClosed;
  }

  totals(): Totals {
    return this.tracker.totals();
  }

  /** Resolves once the journal of a finished job has been compacted (it happens after run() resolves). */
  whenCompacted(): Promise<void> {
    return this.steps.compacting;
  }

  /** Subscribes to events; returns the unsubscribe function. */
  on(listener: (e: UploadEvent) => void): () => void {
    return this.events.subscribe(listener);
  }

  /** Changes the bandwidth limit (bytes per second, null for none); transfers starting from now follow it. */
  setBandwidthLimit(bytesPerSecond: number | null): void {
    this.bucket.setRate(bytesPerSecond);
  }

  /**
   * Runs the job to the end: resolves with the ready exam, or rejects with an UploadError.
   * A `resumable` error leaves the journal as it was: running the job again continues it.
   */
  run(): Promise<UploadResult> {
    if (this.running) return this.running;
    // The run is known (`running`, `runAbort`) before it emits anything: it starts on the next
    // microtask, so a pause, stop or cancel called by a listener of its very first event (the
    // compressing status, say) acts on this run instead of racing it.
    const abort = new AbortController();
    this.runAbort = abort;
    const running = Promise.resolve()
      .then(() => this.runOnce(abort.signal))
      .finally(() => {
        this.running = null;
        if (this.runAbort === abort) this.runAbort = null;
      });
    this.running = running;
    return running;
  }

  /**
   * Pauses: no new transfer starts, and transfers in flight are aborted at once (a presigned PUT
   * cannot continue where it stopped; those files start over on resume). Creating and confirming
   * the exam are short and finish normally.
   */
  pause(): void {
    if (this.gate.isClosed) return;
    this.gate.close();
    this.pauses++;
    for (const c of this.inflight) c.abort(new ControlSignal('pause'));
    this.emitStatus('paused');
  }

  /** Resumes a paused job. */
  resume(): void {
    if (!this.gate.isClosed) return;
    this.gate.open();
    if (this.running) this.emitStatus(this.working);
  }

  /** Stops a run without cancelling the job: it can be resumed later (the CLI's Ctrl+C). */
  async stop(): Promise<void> {
    const running = this.running;
    if (!running) return;
    this.runAbort?.abort(new ControlSignal('stop'));
    await running.catch(() => undefined);
  }

  /** Cancels the job: aborts transfers, deletes the half-made exam and journals the cancellation. */
  async cancel(): Promise<void> {
    const running = this.running;
    if (running) {
      this.runAbort?.abort(new ControlSignal('cancel'));
      await running.catch(() => undefined);
      if (this.state.phase === 'cancelled' || this.state.phase === 'ready') return;
    }
    if (this.state.phase === 'ready' || this.state.phase === 'cancelled') return;
    await this.steps.cancel();
    this.dropArchiveIfEnded();
  }

  /** A job that ended keeps no archive (it holds the patient's images). */
  private dropArchiveIfEnded(): void {
    const p = this.state.phase;
    if (this.state.plan.compress && (p === 'ready' || p === 'failed' || p === 'cancelled'))
      removeArchive(this.dataDir, this.state.plan.job_id);
  }

  // ---- the run ---------------------------------------------------------------------------

  private async runOnce(signal: AbortSignal): Promise<UploadResult> {
    const phase = this.state.phase;
    if (phase === 'ready') return this.result();
    if (phase === 'failed')
      throw new UploadError('rejected', this.state.failure?.message ?? 'This upload failed earlier.');
    if (phase === 'cancelled') throw new UploadError('cancelled', 'This upload was cancelled.');
    this.steps.newRun();
    const agents = createAgents(this.opts.concurrency);
    const ticker = setInterval(() => this.tick(), this.opts.progressIntervalMs);
    try {
      if (this.resumedJob && this.state.phase !== 'planned') {
        const facts = {
          exam_id: this.state.exam?.id ?? '',
          mode: this.state.plan.mode,
          stored: this.state.doneCount,
          total: this.state.plan.files.length,
        };
        this.notice('resumed', noticeWords('resumed', facts, 'en') ?? '', facts);
      }
      return await this.drive(signal, agents);
    } catch (err) {
      throw await this.steps.settleFailure(err, signal);
    } finally {
      clearInterval(ticker);
      agents.destroy();
      try {
        this.journal.flushDone('sync');
      } catch {
        // A full disk: those files are sent again by the next run (the failure itself was reported).
      }
      this.dropArchiveIfEnded();
      this.tick();
    }
  }

  private async drive(signal: AbortSignal, agents: TransferAgents): Promise<UploadResult> {
    // A run starts by checking the files against the plan (a changed export is never uploaded),
    // unless the plan was made a moment ago by this process.
    if (this.resumedJob || Date.now() - this.state.plan.at > FRESH_PLAN_MS)
      await this.checkFiles(this.state.plan.files.map((_, i) => i));
    if (this.state.recovery) await this.steps.recover(signal);
    for (;;) {
      // An exam that became ready stays ready: a pause, stop or cancel that came as the service
      // answered has nothing left to stop (a cancel must not delete a ready exam).
      if (this.state.phase === 'ready') return this.result();
      signal.throwIfAborted();
      switch (this.state.phase) {
        case 'planned':
          if (this.state.plan.compress) await this.archive.beforeCreate(signal);
          await this.steps.create(signal);
          break;
        case 'creating':
          await this.steps.removeOrphans(signal);
          this.state.phase = 'planned';
          break;
        case 'created':
          try {
            if (linksExpired(this.state.exam)) throw new UrlsExpired();
            if (this.state.plan.compress && this.archive.overBudget()) throw new ArchiveOverBudget();
            const streamed = this.state.plan.compress === true && this.archive.streaming;
            if (this.state.plan.compress && !streamed && !this.archive.path) await this.archive.prepare(signal);
            this.emitStatus('transferring');
            const measure = { wire: this.tracker.wireBytes, at: performance.now(), pauses: this.pauses };
            if (this.state.plan.mode === 'files') await sendFiles(this.transferContext(), signal, agents);
            else if (streamed) {
              // Sent while written: until the writer is done the send may wait for it, so only
              // what is sent after that says how fast the link is.
              let written: typeof measure | null = null;
              await this.archive.sendWhileWriting(
                signal,
                (growing, s) => sendZip({ ...this.transferContext(), growing }, s, agents),
                () => (written = { ...measure, wire: this.tracker.wireBytes, at: performance.now() }),
              );
              if (written) this.learnLinkRate(written);
            } else await sendZip(this.transferContext(), signal, agents);
            if (!streamed) this.learnLinkRate(measure);
            this.steps.append({ t: 'uploaded' });
          } catch (err) {
            if (err instanceof AlreadyComplete) this.steps.append({ t: 'uploaded' });
            else if (err instanceof UrlsExpired) await this.steps.replaceExpired(signal);
            else if (err instanceof ArchiveOverBudget) await this.steps.replaceOverBudget(signal);
            else throw err;
          }
          break;
        case 'uploaded':
          await this.steps.finish(signal);
          break;
        case 'failed':
        case 'cancelled':
          throw new UploadError('rejected', 'The job ended.');
      }
    }
  }

  /**
   * Keeps the rate this transfer saw since `m` (link-rate.ts), unless a pause cut it or the
   * bandwidth limit, not the link, set it.
   */
  private learnLinkRate(m: { wire: number; at: number; pauses: number }): void {
    if (m.pauses !== this.pauses) return;
    const bytes = this.tracker.wireBytes - m.wire;
    const seconds = (performance.now() - m.at) / 1000;
    const limit = this.bucket.bytesPerSecond;
    if (limit !== null && bytes / Math.max(seconds, 1e-3) > 0.9 * limit) return;
    recordUploadRate(this.dataDir, bytes, seconds);
  }

  /** What the transfer modules need of the job: its state and a few of its services. */
  private transferContext(): TransferContext {
    return {
      state: this.state,
      archivePath: this.archive.path,
      concurrency: this.opts.concurrency,
      gate: this.gate,
      inflight: this.inflight,
      journal: this.journal,
      tracker: this.tracker,
      waitIfPaused: (signal) => this.waitIfPaused(signal),
      checkFiles: (indices) => this.checkFiles(indices),
      putOptions: (agents, signal, index, name) => this.putOptions(agents, signal, index, name),
      transferFailure: (err, files) => this.transferFailure(err, files),
      emit: (e) => this.emit(e),
    };
  }

  private putOptions(
    agents: TransferAgents,
    signal: AbortSignal,
    index: number,
    name: string,
  ): Parameters<typeof putWithRetry>[2] {
    return {
      agents,
      signal,
      stallTimeoutMs: this.opts.stallTimeoutMs,
      bucket: this.bucket,
      maxAttempts: this.opts.maxAttempts,
      backoff: this.opts.backoff,
      onProgress: (d) => this.tracker.onBytes(d),
      // The archive of a zip-mode upload (index -1) says its retries too: the queue reads them as
      // a run in trouble that should not hold back the next study.
      onRetry: ({ attempt, delayMs, error }) => {
        this.emit({
          type: 'file',
          index,
          name,
          progress: { state: 'retrying', attempt, delayMs, reason: error.message },
        });
      },
    };
  }

  /** Turns a failed transfer into the job's next move (naming the file when one changed). */
  private async transferFailure(err: unknown, files: number[]): Promise<unknown> {
    const next = transferFailureOf(err, this.opts.maxAttempts);
    if (next.recheck) await this.checkFiles(files);
    return next.error;
  }

  /** Re-stats files against the plan; a difference fails the job with a message naming the file. */
  private async checkFiles(indices: readonly number[]): Promise<void> {
    const files = this.state.plan.files;
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let k = next++; k < indices.length; k = next++) {
        const f = files[indices[k] ?? -1];
        if (f) await checkFile(f);
      }
    };
    await Promise.all(Array.from({ length: Math.min(16, indices.length) }, worker));
  }

  private async waitIfPaused(signal: AbortSignal): Promise<void> {
    if (!this.gate.isClosed) return;
    await this.gate.wait(signal);
    // A long pause may have outlived the upload links.
    if (linksExpired(this.state.exam)) throw new UrlsExpired();
  }

  private resetTracker(): void {
    const b = progressBaseline(this.state);
    this.tracker.reset(b.bytesTotal, b.filesTotal, b.bytesDone, b.filesDone);
  }

  private result(): UploadResult {
    const plan = this.state.plan;
    return {
      exam_id: this.state.readyExamId ?? this.state.exam?.id ?? '',
      status: 'ready',
      files: plan.files.length,
      bytes: plan.bytes,
      mode: plan.mode,
      resumed: this.resumedJob,
      bytes_sent: this.tracker.wireBytes,
      api_calls: this.steps.apiCalls,
    };
  }

  private tick(): void {
    const now = performance.now();
    this.tracker.sample(now);
    const totals = this.tracker.totals();
    const c = totals.compression;
    const key = `${totals.bytesSent}|${totals.filesDone}|${totals.rate}|${totals.etaSeconds}|${totals.bytesTotal}|${c?.state}|${c?.studyBytesDone}`;
    if (key === this.lastTotals) return;
    this.lastTotals = key;
    this.lastTickAt = now;
    this.emit({ type: 'progress', totals });
  }

  /**
   * A step advanced between ticks (a file compressed): reported at once when nothing was reported for
   * a tick's time, so the first figures of a short step are seen before it ends.
   */
  private tickIfDue(): void {
    if (performance.now() - this.lastTickAt >= this.opts.progressIntervalMs) this.tick();
  }

  /**
   * Reports a status. A step at work (compressing, creating, transferring, confirming) is kept as
   * what resume() reports again, and shown as `paused` while the job is paused.
   */
  private emitStatus(next: JobStatus): void {
    let status = next;
    if (WORKING_STATUSES.has(status)) {
      this.working = status;
      if (this.gate.isClosed) status = 'paused';
    }
    if (status === this.lastStatus) return;
    this.lastStatus = status;
    this.emit({ type: 'status', status, examId: this.examId, totals: this.tracker.totals() });
  }

  private notice(code: NoticeCode, message: string, params?: NoticeParams): void {
    this.emit(params ? { type: 'notice', code, message, params } : { type: 'notice', code, message });
  }

  private emit(e: UploadEvent): void {
    this.events.emit(e);
  }
}
