// The upload engine: one job per exam, driven from its journal through
//   plan → create exam → transfer → confirm (files mode) or process-zip (zip mode).
// Every step is journaled before or after it happens (see journal.ts), so a job can be resumed
// after any crash without creating a second exam. UI code only listens to the events.
//
// Why this module is longer than the others (about 600 lines): it is the job's handle and its state
// loop — create, confirm, replace an expired exam, settle a failure or a cancel — and all of them
// read and write the same journaled state. The parts that do not need that state live beside it:
// engine-types.ts (vocabulary), file-transfer.ts and zip-transfer.ts (the transfers),
// failures.ts (failure mapping), orphans.ts (orphan search), job-records.ts, file-checks.ts.
import { randomUUID } from 'node:crypto';
import { backoffDelayMs, sleep } from '../api/retry';
import { AlreadyComplete, ControlSignal, DURABILITY, ENGINE_DEFAULTS, FRESH_PLAN_MS, UrlsExpired } from './engine-types';
import type { EngineOptions, JobDeps, JobStatus, NoticeCode, UploadEvent, UploadResult } from './engine-types';
import { isAbortError, UploadError } from './errors';
import { transferFailureOf, uploadFailureOf } from './failures';
import { checkFile } from './file-checks';
import { sendFiles } from './file-transfer';
import { Gate } from './gate';
import { applyRecord, type JobState, replayJournal, initialState } from './job-state';
import { examIdsOfOtherJobs, newJournalPath, waitWhileOthersCreate } from './job-store';
import { orphanRemovedMessage } from './failure-text';
import { Journal, type JournalRecord, type PlannedRecord } from './journal';
import { findOrphans } from './orphans';
import type { JobPlan } from './plan';
import { validateFields } from './plan';
import { type CallOptions, type CreateExamInput, type CreatedExam, type ExamSummary, type ExamsPort, ExamsPortError, type UploadMode } from './ports';
import { ProgressTracker, type Totals } from './progress';
import type { UploadTarget } from './target';
import { TokenBucket } from './token-bucket';
import { createdRecordOf, summaryOf } from './job-records';
import { createAgents, type putWithRetry, type TransferAgents } from './transfer';
import type { TransferContext } from './transfer-context';
import { sendZip } from './zip-transfer';

export type { EngineOptions, FileProgress, JobDeps, JobStatus, NoticeCode, UploadEvent, UploadResult } from './engine-types';

/** One upload job (one exam). Create with `UploadJob.create` or reopen with `UploadJob.open`. */
export class UploadJob {
  private readonly listeners = new Set<(e: UploadEvent) => void>();
  private readonly opts: typeof ENGINE_DEFAULTS;
  private readonly bucket: TokenBucket;
  private readonly tracker: ProgressTracker;
  private readonly gate = new Gate();
  private readonly inflight = new Set<AbortController>();
  private runAbort: AbortController | null = null;
  private running: Promise<UploadResult> | null = null;
  private apiCalls = 0;
  private recreations = 0;
  private lastStatus: JobStatus | null = null;
  private compacting: Promise<void> = Promise.resolve();
  private lastTotals = '';
  // True once this run sent a create whose answer was lost, so an exam found by the
  // orphan search is reported as "answer lost", not "left half-made by an interrupted run".
  private createSentThisRun = false;

  private constructor(
    private readonly journal: Journal,
    private readonly state: JobState,
    private readonly port: ExamsPort,
    private readonly dataDir: string,
    options: EngineOptions,
    private readonly resumedJob: boolean,
  ) {
    this.opts = { ...ENGINE_DEFAULTS, ...stripUndefined(options) };
    this.bucket = options.bucket ?? new TokenBucket(options.bandwidthLimit ?? null);
    this.tracker = new ProgressTracker(0, 0);
    this.resetTracker();
  }

  /** Starts a new job for a plan: writes its journal (nothing is sent yet). */
  static create(plan: JobPlan, deps: JobDeps, target?: UploadTarget): UploadJob {
    validateFields(plan.fields);
    const { path, jobId } = newJournalPath(deps.dataDir, plan.root);
    const planned: PlannedRecord = {
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
    };
    const journal = Journal.create(path, planned, { doneFlushMs: deps.options?.doneFlushMs });
    return new UploadJob(journal, initialState(planned), deps.port, deps.dataDir, deps.options ?? {}, false);
  }

  /** Reopens a job from its journal (after a crash, an interruption or a restart of the app). */
  static open(path: string, deps: JobDeps): UploadJob {
    const { journal, records } = Journal.open(path, { doneFlushMs: deps.options?.doneFlushMs });
    const state = replayJournal(records);
    const job = new UploadJob(journal, state, deps.port, deps.dataDir, deps.options ?? {}, true);
    // Ended, but the process died before the journal was compacted: finish that now.
    if (state.phase === 'ready') job.compact('ready', state.readyExamId);
    else if (state.phase === 'failed') job.compact('failed', null, state.failure?.code);
    else if (state.phase === 'cancelled') job.compact('cancelled', null);
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
    return this.compacting;
  }

  /** Subscribes to events; returns the unsubscribe function. */
  on(listener: (e: UploadEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
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
    this.running ??= this.runOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /**
   * Pauses: no new transfer starts, and transfers in flight are aborted at once (a presigned PUT
   * cannot continue where it stopped; those files start over on resume). Creating and confirming
   * the exam are short and finish normally.
   */
  pause(): void {
    if (this.gate.isClosed) return;
    this.gate.close();
    for (const c of this.inflight) c.abort(new ControlSignal('pause'));
    this.emitStatus('paused');
  }

  /** Resumes a paused job. */
  resume(): void {
    if (!this.gate.isClosed) return;
    this.gate.open();
    if (this.running) this.emitStatus('transferring');
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
    await this.cleanupCancel();
  }

  // ---- the run ---------------------------------------------------------------------------

  private async runOnce(): Promise<UploadResult> {
    const phase = this.state.phase;
    if (phase === 'ready') return this.result();
    if (phase === 'failed') throw new UploadError('rejected', this.state.failure?.message ?? 'This upload failed earlier.');
    if (phase === 'cancelled') throw new UploadError('cancelled', 'This upload was cancelled.');
    this.runAbort = new AbortController();
    const signal = this.runAbort.signal;
    this.recreations = 0;
    const agents = createAgents(this.opts.concurrency);
    const ticker = setInterval(() => this.tick(), this.opts.progressIntervalMs);
    try {
      if (this.resumedJob && this.state.phase !== 'planned') {
        const done = this.state.plan.mode === 'files' ? `${this.state.doneCount} of ${this.state.plan.files.length} files already stored` : 'the ZIP is sent again';
        this.notice('resumed', `Resuming the interrupted upload${this.state.exam ? ` of exam ${this.state.exam.id}` : ''} (${done}).`);
      }
      return await this.drive(signal, agents);
    } catch (err) {
      throw await this.settleFailure(err, signal);
    } finally {
      clearInterval(ticker);
      agents.destroy();
      this.journal.flushDone('sync');
      this.runAbort = null;
      this.tick();
    }
  }

  private async drive(signal: AbortSignal, agents: TransferAgents): Promise<UploadResult> {
    // A run starts by checking the files against the plan (a changed export is never uploaded),
    // unless the plan was made a moment ago by this process.
    if (this.resumedJob || Date.now() - this.state.plan.at > FRESH_PLAN_MS) await this.checkFiles(this.state.plan.files.map((_, i) => i));
    for (;;) {
      signal.throwIfAborted();
      switch (this.state.phase) {
        case 'planned':
          await this.createExam(signal);
          break;
        case 'creating':
          await this.removeOrphans(signal);
          this.state.phase = 'planned';
          break;
        case 'created':
          try {
            if (this.urlsExpired()) throw new UrlsExpired();
            this.emitStatus(this.gate.isClosed ? 'paused' : 'transferring');
            if (this.state.plan.mode === 'files') await sendFiles(this.transferContext(), signal, agents);
            else await sendZip(this.transferContext(), signal, agents);
            this.append({ t: 'uploaded' });
          } catch (err) {
            if (err instanceof AlreadyComplete) {
              this.append({ t: 'uploaded' });
              break;
            }
            if (!(err instanceof UrlsExpired)) throw err;
            if (++this.recreations > this.opts.maxExamRecreations) {
              throw new UploadError('urls_keep_expiring', 'The upload links keep expiring before the files are sent; check the connection speed and the computer clock, then run the upload again.');
            }
            await this.discardExam('url_expired', signal);
            this.notice('exam_recreated', 'The upload links expired; the exam is being created again and its files sent again.');
          }
          break;
        case 'uploaded':
          await this.finish(signal);
          break;
        case 'ready':
          return this.result();
        case 'failed':
        case 'cancelled':
          throw new UploadError('rejected', 'The job ended.');
      }
    }
  }

  private async createExam(signal: AbortSignal): Promise<void> {
    this.emitStatus('creating');
    const plan = this.state.plan;
    const input: CreateExamInput =
      plan.mode === 'files'
        ? { ...plan.fields, upload_mode: 'files', files: plan.files.map((f) => ({ name: f.name, size: f.size })) }
        : { ...plan.fields, upload_mode: 'zip', zip_size_bytes: plan.zip_size };
    // The intent is durable before the request leaves: a crash from here on is followed by an
    // orphan search instead of a blind second create.
    this.append({ t: 'creating', marker: randomUUID(), at: Date.now() });
    this.createSentThisRun = true; // See orphanRemovedMessage.
    let created: CreatedExam;
    try {
      created = await this.api((c) => this.port.createExam(input, c), { idempotent: false, signal });
    } catch (err) {
      if (err instanceof ExamsPortError && err.kind === 'transient') {
        // Unknown outcome: the next loop looks for the exam it may have made, removes it, creates again.
        if (++this.recreations > this.opts.maxExamRecreations) throw err;
        await sleep(backoffDelayMs(this.recreations - 1, this.opts.backoff), signal);
        return;
      }
      if (err instanceof ExamsPortError && (err.kind === 'rejected' || err.kind === 'not_found' || err.kind === 'upload_incomplete')) {
        // Refused: nothing was created.
        this.state.phase = 'planned';
        throw new UploadError('rejected', `The service refused to create the exam: ${err.message}`, false, { cause: err });
      }
      throw err;
    }
    const record = createdRecordOf(this.state.plan, created);
    if (!record) {
      await this.deleteQuietly(created.id);
      this.append({ t: 'discarded', exam_id: created.id, reason: 'bad_answer' });
      throw new UploadError('rejected', 'The service answered the exam creation without the expected upload links.');
    }
    this.append(record);
    this.resetTracker();
  }

  /**
   * After a create whose answer was lost (crash, time-out, 5xx): find the exam it may have made.
   * API v1 cannot hand out its upload URLs again, so it cannot be filled: it is deleted, and the
   * caller creates a fresh one. Matches: same name, patient id, mode and file count, still
   * uploading, created after the intent (less the clock skew), and not known to any other job.
   */
  private async removeOrphans(signal: AbortSignal | undefined): Promise<number> {
    const intent = this.state.intent;
    if (!intent) return 0;
    const plan = this.state.plan;
    // An exam another live job is creating right now looks like ours; wait until that
    // job has journaled its answer (its exam id then joins `others`), never delete it.
    await waitWhileOthersCreate(this.dataDir, this.journal.path, signal);
    const recent = await this.api((c) => this.port.listRecentExams(100, c), { idempotent: true, signal });
    const known = new Set([...examIdsOfOtherJobs(this.dataDir, this.journal.path), ...this.state.discarded]);
    const orphans = findOrphans(recent, plan, intent.at - this.opts.clockSkewMs, known);
    for (const e of orphans) {
      await this.api((c) => this.port.deleteExam(e.id, c), { idempotent: true, signal });
      this.append({ t: 'discarded', exam_id: e.id, reason: 'orphan' });
      this.notice('orphan_removed', orphanRemovedMessage(e.id, this.createSentThisRun));
    }
    this.state.intent = null;
    return orphans.length;
  }

  /** What the transfer modules need of the job: its state and a few of its services. */
  private transferContext(): TransferContext {
    return {
      state: this.state,
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

  private putOptions(agents: TransferAgents, signal: AbortSignal, index: number, name: string): Parameters<typeof putWithRetry>[2] {
    return {
      agents,
      signal,
      stallTimeoutMs: this.opts.stallTimeoutMs,
      bucket: this.bucket,
      maxAttempts: this.opts.maxAttempts,
      backoff: this.opts.backoff,
      onProgress: (d) => this.tracker.onBytes(d),
      onRetry: ({ attempt, delayMs, error }) => {
        if (index >= 0) this.emit({ type: 'file', index, name, progress: { state: 'retrying', attempt, delayMs, reason: error.message } });
      },
    };
  }

  /** Turns a failed transfer into the job's next move (naming the file when one changed). */
  private async transferFailure(err: unknown, files: number[]): Promise<unknown> {
    const next = transferFailureOf(err, this.opts.maxAttempts);
    if (next.recheck) await this.checkFiles(files);
    return next.error;
  }

  private async finish(signal: AbortSignal): Promise<void> {
    const plan = this.state.plan;
    const exam = this.state.exam;
    if (!exam) throw new Error('no exam to finish');
    this.emitStatus('confirming');
    let answer: ExamSummary;
    try {
      answer =
        plan.mode === 'files'
          ? await this.api((c) => this.port.confirmExam(exam.id, c), { idempotent: true, signal })
          : await this.api((c) => this.port.processZip(exam.id, c), { idempotent: true, signal });
    } catch (err) {
      if (err instanceof ExamsPortError && err.kind === 'upload_incomplete') {
        // Storage lost or never got what the journal says was sent: send those again, once.
        if (++this.recreations > this.opts.maxExamRecreations) {
          throw new UploadError('incomplete_after_confirm', 'The service keeps reporting files missing after they were sent.', false, { cause: err });
        }
        const missing = new Set(err.details.missing ?? []);
        const idx = plan.mode === 'zip' || missing.size === 0 ? plan.files.map((_, i) => i) : plan.files.flatMap((f, i) => (missing.has(f.name) ? [i] : []));
        this.append({ t: 'undone', i: idx });
        if (plan.mode === 'zip') this.state.phase = 'created';
        this.resetTracker();
        this.notice('files_missing', `The service is missing ${idx.length} file(s); sending them again.`);
        return;
      }
      if (err instanceof ExamsPortError && err.kind === 'not_found') throw new UploadError('exam_deleted', 'The exam was deleted on the service before it was confirmed.');
      if (err instanceof ExamsPortError && err.kind === 'rejected') throw new UploadError('rejected', `The service refused to finish the exam: ${err.message}`, false, { cause: err });
      throw err;
    }
    if (answer.status !== 'ready') throw new UploadError('network', `The service answered with the exam still "${answer.status}".`, true);
    this.append({ t: 'ready', exam_id: exam.id, at: Date.now() });
    this.tracker.reset(this.bytesTotal(), plan.files.length, this.bytesTotal(), plan.files.length);
    this.emitStatus('ready');
    // Off the critical path: the exam is ready whatever happens to the journal now.
    this.compacting = this.journal.compactInBackground(summaryOf(this.state.plan, 'ready', exam.id)).catch(() => undefined);
  }

  /** Decides what a failed run leaves behind, and returns the error to throw. */
  private async settleFailure(err: unknown, signal: AbortSignal): Promise<Error> {
    const reason: unknown = signal.aborted ? signal.reason : null;
    if (reason instanceof ControlSignal && reason.kind === 'cancel') {
      await this.cleanupCancel();
      return new UploadError('cancelled', 'The upload was cancelled and its exam removed.');
    }
    if (reason instanceof ControlSignal || (signal.aborted && isAbortError(err))) {
      this.emitStatus('interrupted');
      return new UploadError('interrupted', 'The upload was interrupted; run it again to continue.', true);
    }
    const failure = uploadFailureOf(err);
    if (failure.resumable) {
      this.emitStatus('interrupted');
      return failure;
    }
    // A final failure leaves no half-made exam behind.
    const exam = this.state.exam;
    let message = failure.message;
    if (exam) {
      const removed = await this.deleteQuietly(exam.id);
      if (removed) {
        this.append({ t: 'discarded', exam_id: exam.id, reason: failure.code });
        message += ' The partial exam was removed; run the upload again when the files are ready.';
      } else message += ` The partial exam ${exam.id} could not be removed; delete it in the web app.`;
    } else if (this.state.phase === 'creating') {
      await this.removeOrphans(undefined).catch(() => 0);
    }
    this.append({ t: 'failed', code: failure.code, message, at: Date.now() });
    this.emitStatus('failed');
    this.compact('failed', exam?.id ?? null, failure.code);
    return new UploadError(failure.code, message, false, { cause: failure });
  }

  private async cleanupCancel(): Promise<void> {
    const exam = this.state.exam;
    try {
      if (exam) {
        await this.api((c) => this.port.deleteExam(exam.id, c), { idempotent: true });
        this.append({ t: 'discarded', exam_id: exam.id, reason: 'cancelled' });
      } else if (this.state.phase === 'creating') {
        await this.removeOrphans(undefined);
      }
    } catch (err) {
      throw new UploadError('network', `The upload was stopped but its exam could not be removed (${err instanceof Error ? err.message : String(err)}); cancel again when the service is reachable.`, true, { cause: err });
    }
    this.append({ t: 'cancelled', at: Date.now() });
    this.emitStatus('cancelled');
    this.compact('cancelled', exam?.id ?? null);
  }

  private async discardExam(reason: string, signal: AbortSignal): Promise<void> {
    const exam = this.state.exam;
    if (!exam) return;
    await this.api((c) => this.port.deleteExam(exam.id, c), { idempotent: true, signal });
    this.append({ t: 'discarded', exam_id: exam.id, reason });
    this.resetTracker();
  }

  private async deleteQuietly(id: string): Promise<boolean> {
    try {
      await this.api((c) => this.port.deleteExam(id, c), { idempotent: true });
      return true;
    } catch {
      return false;
    }
  }

  // ---- helpers ---------------------------------------------------------------------------

  /**
   * One API call through the port. The API client is the one retry layer (429s waited out,
   * transient faults of idempotent calls retried); each of its waits becomes a notice here.
   * `idempotent` is the engine's own statement of the call, kept for readers: the client decides
   * by the endpoint.
   */
  private async api<T>(call: (o: CallOptions) => Promise<T>, o: { idempotent: boolean; signal?: AbortSignal }): Promise<T> {
    this.apiCalls++;
    return call({
      ...(o.signal ? { signal: o.signal } : {}),
      onRetry: (r) => {
        if (r.reason === 'rate_limited') this.notice('rate_limited', `The service's rate limit was reached; waiting ${Math.ceil(r.delayMs / 1000)} s.`);
        else this.notice('api_retry', `The service did not answer properly (${r.code}); retrying.`);
      },
    });
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
    if (this.urlsExpired()) throw new UrlsExpired();
  }

  /** True when the exam's links have expired or will within a margin (a quarter of their lifetime, at most 60 s). */
  private urlsExpired(): boolean {
    const exam = this.state.exam;
    if (!exam) return false;
    const created = Date.parse(exam.createdAt);
    const life = Number.isFinite(created) ? exam.expiresAt - created : 3_600_000;
    return Date.now() >= exam.expiresAt - Math.min(60_000, Math.max(0, life / 4));
  }

  private append(record: JournalRecord): void {
    this.journal.append(record, DURABILITY[record.t]);
    applyRecord(this.state, record);
  }

  private compact(outcome: 'ready' | 'failed' | 'cancelled', examId: string | null, code?: string): void {
    this.journal.compact(summaryOf(this.state.plan, outcome, examId, code));
  }

  private bytesTotal(): number {
    return this.state.plan.mode === 'zip' ? this.state.plan.zip_size : this.state.plan.bytes;
  }

  private resetTracker(): void {
    const { plan, done } = this.state;
    if (plan.mode === 'zip') {
      const sent = this.state.phase === 'uploaded' || this.state.phase === 'ready';
      this.tracker.reset(plan.zip_size, plan.files.length, sent ? plan.zip_size : 0, this.state.phase === 'ready' ? plan.files.length : 0);
      return;
    }
    let bytes = 0;
    for (let i = 0; i < done.length; i++) if (done[i] === 1) bytes += plan.files[i]?.size ?? 0;
    this.tracker.reset(plan.bytes, plan.files.length, bytes, this.state.doneCount);
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
      api_calls: this.apiCalls,
    };
  }

  private tick(): void {
    this.tracker.sample(performance.now());
    const totals = this.tracker.totals();
    const key = `${totals.bytesSent}|${totals.filesDone}|${totals.rate}|${totals.etaSeconds}|${totals.bytesTotal}`;
    if (key === this.lastTotals) return;
    this.lastTotals = key;
    this.emit({ type: 'progress', totals });
  }

  private emitStatus(status: JobStatus): void {
    if (status === this.lastStatus) return;
    this.lastStatus = status;
    this.emit({ type: 'status', status, examId: this.examId, totals: this.tracker.totals() });
  }

  private notice(code: NoticeCode, message: string): void {
    this.emit({ type: 'notice', code, message });
  }

  private emit(e: UploadEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // A listener's bug must not break the upload.
      }
    }
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
