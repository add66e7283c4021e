// The upload engine: one job per exam, driven from its journal through
//   plan → create exam → transfer → confirm (files mode) or process-zip (zip mode).
// Every step is journaled before or after it happens (see journal.ts), so a job can be resumed
// after any crash without creating a second exam. UI code only listens to the events.
import { randomUUID } from 'node:crypto';
import { type Stats, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { backoffDelay, type BackoffPolicy, DEFAULT_BACKOFF, sleep } from './backoff';
import { isAbortError, UploadError } from './errors';
import { openFileRange } from './file-source';
import { Gate } from './gate';
import { applyRecord, type JobState, replayJournal, initialState } from './job-state';
import { examIdsOfOtherJobs, newJournalPath } from './job-store';
import { type Durability, Journal, type JournalRecord, type PlannedRecord, type SummaryRecord } from './journal';
import type { JobPlan } from './plan';
import { formatBytes, settingsHash, validateFields } from './plan';
import { type CreateExamInput, type CreatedExam, type ExamSummary, type ExamsPort, ExamsPortError, type UploadMode } from './ports';
import { ProgressTracker, type Totals } from './progress';
import type { UploadTarget } from './target';
import { TokenBucket } from './token-bucket';
import { createAgents, putWithRetry, TransferError, type TransferAgents } from './transfer';
import { createZipStream } from './zip';

export type EngineOptions = {
  /** Files sent at once (files mode). */
  concurrency?: number;
  /** Bytes per second for this job, null for no limit (ignored when `bucket` is given). */
  bandwidthLimit?: number | null;
  /** A limit shared with other jobs. */
  bucket?: TokenBucket;
  /** No progress for this long aborts a transfer attempt (it is retried). */
  stallTimeoutMs?: number;
  /** Attempts per transfer before the job stops (resumable). */
  maxAttempts?: number;
  backoff?: BackoffPolicy;
  /** Retries of idempotent API calls that failed transiently. */
  apiRetries?: number;
  /** 429 answers waited out per API call before giving up (resumable). */
  maxRateLimitWaits?: number;
  /** Longest single wait on a 429's Retry-After. */
  maxRateLimitWaitMs?: number;
  /** Times a job may replace its exam in one run (URLs expired) before it gives up. */
  maxExamRecreations?: number;
  /** Progress events come at most this often. */
  progressIntervalMs?: number;
  /** Tolerated clock difference between this computer and the service when matching a crashed create. */
  clockSkewMs?: number;
  /** How often file completions are fsynced to the journal. */
  doneFlushMs?: number;
};

const DEFAULTS = {
  concurrency: 6,
  stallTimeoutMs: 30_000,
  maxAttempts: 8,
  apiRetries: 5,
  maxRateLimitWaits: 10,
  maxRateLimitWaitMs: 15 * 60_000,
  maxExamRecreations: 3,
  progressIntervalMs: 200,
  clockSkewMs: 10 * 60_000,
  doneFlushMs: 250,
  backoff: DEFAULT_BACKOFF as BackoffPolicy,
};

/**
 * How soon each record must survive a power cut. `creating` must be on disk before POST /exams
 * leaves, and removals before the next step; the rest only saves work after a power cut (without
 * `created`, a resume removes that exam and makes a new one; without `uploaded`/`ready`, it
 * confirms again, which is idempotent). Waiting for fsync on those would stall the transfers.
 */
const DURABILITY: Record<JournalRecord['t'], Durability> = {
  planned: 'none',
  creating: 'sync',
  created: 'background',
  done: 'background',
  undone: 'sync',
  uploaded: 'none',
  discarded: 'sync',
  ready: 'background',
  failed: 'sync',
  cancelled: 'sync',
  summary: 'sync',
};

/** A plan younger than this was stat'ed just now: no need to stat every file again before starting. */
const FRESH_PLAN_MS = 10_000;

export type JobStatus = 'planned' | 'creating' | 'transferring' | 'paused' | 'confirming' | 'ready' | 'failed' | 'cancelled' | 'interrupted';

/** What happened to one file (a discriminated union the UI renders as it likes). */
export type FileProgress =
  | { state: 'sending'; attempt: number }
  | { state: 'retrying'; attempt: number; delayMs: number; reason: string }
  | { state: 'requeued' }
  | { state: 'done' };

export type NoticeCode = 'resumed' | 'orphan_removed' | 'exam_recreated' | 'rate_limited' | 'api_retry' | 'files_missing';

export type UploadEvent =
  | { type: 'status'; status: JobStatus; examId: string | null; totals: Totals }
  | { type: 'progress'; totals: Totals }
  | { type: 'file'; index: number; name: string; progress: FileProgress }
  | { type: 'notice'; code: NoticeCode; message: string };

export type UploadResult = {
  exam_id: string;
  status: 'ready';
  files: number;
  bytes: number;
  mode: UploadMode;
  /** True when this run continued a job an earlier run started. */
  resumed: boolean;
  /** Bytes put on the network by this run, retries included. */
  bytes_sent: number;
  /** API calls made by this run (storage PUTs are not API calls). */
  api_calls: number;
};

export type JobDeps = { port: ExamsPort; dataDir: string; options?: EngineOptions };

/** Why a run was aborted on purpose. */
class ControlSignal extends Error {
  constructor(readonly kind: 'stop' | 'cancel' | 'pause') {
    super(`upload ${kind}`);
    this.name = 'AbortError';
  }
}

/** Internal: the exam's URLs expired; the job replaces the exam. */
class UrlsExpired extends Error {}
/** Internal: storage says the exam is complete already. */
class AlreadyComplete extends Error {}

/** One upload job (one exam). Create with `UploadJob.create` or reopen with `UploadJob.open`. */
export class UploadJob {
  private readonly listeners = new Set<(e: UploadEvent) => void>();
  private readonly opts: typeof DEFAULTS;
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

  private constructor(
    private readonly journal: Journal,
    private readonly state: JobState,
    private readonly port: ExamsPort,
    private readonly dataDir: string,
    options: EngineOptions,
    private readonly resumedJob: boolean,
  ) {
    this.opts = { ...DEFAULTS, ...stripUndefined(options) };
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
            if (this.state.plan.mode === 'files') await this.transferFiles(signal, agents);
            else await this.transferZip(signal, agents);
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
    let created: CreatedExam;
    try {
      created = await this.api((s) => this.port.createExam(input, { signal: s }), { idempotent: false, signal });
    } catch (err) {
      if (err instanceof ExamsPortError && err.kind === 'transient') {
        // Unknown outcome: the next loop looks for the exam it may have made, removes it, creates again.
        if (++this.recreations > this.opts.maxExamRecreations) throw err;
        await sleep(backoffDelay(this.recreations - 1, this.opts.backoff), signal);
        return;
      }
      if (err instanceof ExamsPortError && (err.kind === 'rejected' || err.kind === 'not_found' || err.kind === 'upload_incomplete')) {
        // Refused: nothing was created.
        this.state.phase = 'planned';
        throw new UploadError('rejected', `The service refused to create the exam: ${err.message}`, false, { cause: err });
      }
      throw err;
    }
    const record = this.createdRecord(created);
    if (!record) {
      await this.deleteQuietly(created.id);
      this.append({ t: 'discarded', exam_id: created.id, reason: 'bad_answer' });
      throw new UploadError('rejected', 'The service answered the exam creation without the expected upload links.');
    }
    this.append(record);
    this.resetTracker();
  }

  private createdRecord(c: CreatedExam): Extract<JournalRecord, { t: 'created' }> | null {
    const plan = this.state.plan;
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
    const recent = await this.api((s) => this.port.listRecentExams(100, { signal: s }), { idempotent: true, signal });
    const others = examIdsOfOtherJobs(this.dataDir, this.journal.path);
    const orphans = recent.filter((e) => isOrphanOf(e, plan, intent.at - this.opts.clockSkewMs) && !others.has(e.id) && !this.state.discarded.includes(e.id));
    for (const e of orphans) {
      await this.api((s) => this.port.deleteExam(e.id, { signal: s }), { idempotent: true, signal });
      this.append({ t: 'discarded', exam_id: e.id, reason: 'orphan' });
      this.notice('orphan_removed', `Removed exam ${e.id}, left half-made by an interrupted run.`);
    }
    this.state.intent = null;
    return orphans.length;
  }

  private async transferFiles(signal: AbortSignal, agents: TransferAgents): Promise<void> {
    const { plan, exam, done } = this.state;
    const urls = exam?.urls;
    if (!exam || !urls) throw new Error('no exam to upload to');
    const queue: number[] = [];
    for (let i = 0; i < done.length; i++) if (done[i] === 0) queue.push(i);
    if (queue.length === 0) return;
    // Aborted by the run's signal, or by the first worker that fails.
    const scope = childController(signal);
    const scopeSignal = scope.controller.signal;
    let firstError: unknown = null;
    const fail = (err: unknown): void => {
      firstError ??= err;
      scope.controller.abort(err);
    };

    let epoch = childController(scopeSignal);
    this.inflight.add(epoch.controller);
    const worker = async (): Promise<void> => {
      for (;;) {
        await this.waitIfPaused(scopeSignal);
        const i = queue.shift();
        if (i === undefined) return;
        const f = plan.files[i];
        const url = urls[i];
        if (!f || !url) continue;
        if (this.gate.isClosed) {
          // Paused since the gate let this worker through.
          queue.unshift(i);
          continue;
        }
        // Transfers share one controller per pause epoch: pause() aborts the current one (it is
        // in `inflight`); the next transfer after resume() starts a fresh one.
        if (epoch.controller.signal.aborted) {
          epoch.dispose();
          this.inflight.delete(epoch.controller);
          epoch = childController(scopeSignal);
          this.inflight.add(epoch.controller);
        }
        const own = epoch.controller;
        this.emit({ type: 'file', index: i, name: f.name, progress: { state: 'sending', attempt: 1 } });
        try {
          await putWithRetry(url, { size: f.size, open: () => openFileRange(f.path, f.size) }, this.putOptions(agents, own.signal, i, f.name));
        } catch (err) {
          if (own.signal.aborted && !scopeSignal.aborted) {
            // Paused: the file goes back to the front of the queue.
            queue.unshift(i);
            this.emit({ type: 'file', index: i, name: f.name, progress: { state: 'requeued' } });
            continue;
          }
          throw await this.transferFailure(err, [i]);
        }
        // The file counts as stored only if it still is what was planned: one modified before or
        // while it was read went up stale or half old, half new. (A file deleted or cut short fails
        // its read instead.) A synchronous stat: a few microseconds on a local disk, where an async
        // one costs a thread-pool round trip per file, measurable on a busy machine.
        checkFileSync(f);
        done[i] = 1;
        this.state.doneCount++;
        this.journal.markDone(i);
        this.tracker.onTransferDone(f.size, 1);
        this.emit({ type: 'file', index: i, name: f.name, progress: { state: 'done' } });
      }
    };
    const workers = Array.from({ length: Math.min(this.opts.concurrency, queue.length) }, () => worker().catch(fail));
    await Promise.all(workers);
    this.inflight.delete(epoch.controller);
    epoch.dispose();
    scope.dispose();
    this.journal.flushDone('background');
    if (firstError !== null) throw firstError;
  }

  private async transferZip(signal: AbortSignal, agents: TransferAgents): Promise<void> {
    const { plan, exam } = this.state;
    if (!exam?.zipUrl) throw new Error('no ZIP upload link');
    const all = plan.files.map((_, i) => i);
    for (;;) {
      await this.waitIfPaused(signal);
      await this.checkFiles(all);
      if (this.gate.isClosed) continue;
      const link = childController(signal);
      const own = link.controller;
      const s = own.signal;
      this.inflight.add(own);
      try {
        await putWithRetry(exam.zipUrl, { size: plan.zip_size, open: () => createZipStream(plan.files) }, this.putOptions(agents, s, -1, 'archive.zip'));
      } catch (err) {
        if (own.signal.aborted && !signal.aborted) continue;
        throw await this.transferFailure(err, all);
      } finally {
        this.inflight.delete(own);
        link.dispose();
      }
      await this.checkFiles(all);
      this.tracker.onTransferDone(plan.zip_size, 0);
      return;
    }
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

  /** Turns a failed transfer into the job's next move. */
  private async transferFailure(err: unknown, files: number[]): Promise<unknown> {
    if (!(err instanceof TransferError)) return err;
    switch (err.kind) {
      case 'expired':
        return new UrlsExpired();
      case 'conflict':
        return new AlreadyComplete();
      case 'gone':
        return new UploadError('exam_deleted', 'The exam was deleted on the service while its files were being sent.');
      case 'source':
      case 'size_mismatch':
        // Most likely the file changed under us: say which one.
        await this.checkFiles(files);
        if (err.kind === 'source') return new UploadError('file_unreadable', `A file could not be read: ${err.message}.`, false, { cause: err });
        return new UploadError('storage_rejected', `Storage refused a file: ${err.message}.`, false, { cause: err });
      case 'rejected':
        return new UploadError('storage_rejected', `Storage refused a file: ${err.message}.`, false, { cause: err });
      case 'retryable':
        return new UploadError('network', `Sending stopped after ${this.opts.maxAttempts} attempts (${err.message}). Run the upload again to continue where it stopped.`, true, { cause: err });
    }
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
          ? await this.api((s) => this.port.confirmExam(exam.id, { signal: s }), { idempotent: true, signal })
          : await this.api((s) => this.port.processZip(exam.id, { signal: s }), { idempotent: true, signal });
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
    this.compacting = this.journal.compactInBackground(this.summary('ready', exam.id)).catch(() => undefined);
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
    let failure: UploadError;
    if (err instanceof UploadError) failure = err;
    else if (err instanceof ExamsPortError) {
      failure =
        err.kind === 'transient' || err.kind === 'rate_limited'
          ? new UploadError('network', `The service could not be reached (${err.message}). Run the upload again to continue.`, true, { cause: err })
          : new UploadError(err.kind === 'not_found' ? 'exam_deleted' : 'rejected', `The service refused the request: ${err.message}`, false, { cause: err });
    } else {
      const e = err instanceof Error ? err : new Error(String(err));
      failure = new UploadError('network', `The upload stopped: ${e.message}. Run it again to continue.`, true, { cause: e });
    }
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
        await this.api((s) => this.port.deleteExam(exam.id, { signal: s }), { idempotent: true });
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
    await this.api((s) => this.port.deleteExam(exam.id, { signal: s }), { idempotent: true, signal });
    this.append({ t: 'discarded', exam_id: exam.id, reason });
    this.resetTracker();
  }

  private async deleteQuietly(id: string): Promise<boolean> {
    try {
      await this.api((s) => this.port.deleteExam(id, { signal: s }), { idempotent: true });
      return true;
    } catch {
      return false;
    }
  }

  // ---- helpers ---------------------------------------------------------------------------

  /**
   * One API call through the port: 429 answers are waited out (Retry-After, plus jitter so that
   * parallel jobs do not return in step); idempotent calls also retry transient faults.
   */
  private async api<T>(call: (signal: AbortSignal | undefined) => Promise<T>, o: { idempotent: boolean; signal?: AbortSignal }): Promise<T> {
    let transient = 0;
    let waits = 0;
    for (;;) {
      this.apiCalls++;
      try {
        return await call(o.signal);
      } catch (err) {
        o.signal?.throwIfAborted();
        if (!(err instanceof ExamsPortError)) throw err;
        if (err.kind === 'rate_limited' && waits < this.opts.maxRateLimitWaits) {
          waits++;
          const ms = Math.min(this.opts.maxRateLimitWaitMs, Math.max(1, err.details.retryAfterSeconds ?? 1) * 1000) + Math.floor(Math.random() * 250);
          this.notice('rate_limited', `The service's rate limit was reached; waiting ${Math.ceil(ms / 1000)} s.`);
          await sleep(ms, o.signal);
          continue;
        }
        if (err.kind === 'transient' && o.idempotent && transient < this.opts.apiRetries) {
          const ms = backoffDelay(transient++, this.opts.backoff);
          this.notice('api_retry', `The service did not answer properly (${err.message}); retrying.`);
          await sleep(ms, o.signal);
          continue;
        }
        throw err;
      }
    }
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
    this.journal.compact(this.summary(outcome, examId, code));
  }

  private summary(outcome: 'ready' | 'failed' | 'cancelled', examId: string | null, code?: string): SummaryRecord {
    const plan = this.state.plan;
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

type PlannedFileRecord = PlannedRecord['files'][number];

async function checkFile(f: PlannedFileRecord): Promise<void> {
  let s: Stats;
  try {
    s = await stat(f.path);
  } catch (err) {
    throw statFailure(f, err);
  }
  compareStat(f, s);
}

function checkFileSync(f: PlannedFileRecord): void {
  let s: Stats;
  try {
    s = statSync(f.path);
  } catch (err) {
    throw statFailure(f, err);
  }
  compareStat(f, s);
}

function statFailure(f: PlannedFileRecord, err: unknown): UploadError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new UploadError('file_changed', `"${f.name}" was deleted after the upload was planned.`);
  return new UploadError('file_unreadable', `"${f.name}" cannot be read (${code ?? 'error'}).`, false, { cause: err });
}

function compareStat(f: PlannedFileRecord, s: Stats): void {
  if (s.size !== f.size) {
    throw new UploadError('file_changed', `"${f.name}" changed after the upload was planned (its size went from ${formatBytes(f.size)} to ${formatBytes(s.size)}).`);
  }
  if (s.mtimeMs !== f.mtimeMs || (f.ino !== 0 && s.ino !== f.ino)) {
    throw new UploadError('file_changed', `"${f.name}" was modified or replaced after the upload was planned.`);
  }
}

function isOrphanOf(e: ExamSummary, plan: PlannedRecord, notBefore: number): boolean {
  if (e.status !== 'uploading' || e.name !== plan.fields.name) return false;
  if ((e.patient_id ?? '') !== (plan.fields.patient_id ?? '')) return false;
  if (e.upload_mode !== null && e.upload_mode !== plan.mode) return false;
  if (plan.mode === 'files' && e.file_count !== null && e.file_count !== 0 && e.file_count !== plan.files.length) return false;
  const created = Date.parse(e.created_at);
  return !Number.isFinite(created) || created >= notBefore;
}

/** A controller that aborts (with the same reason) when `parent` does; `dispose` unhooks it. */
function childController(parent: AbortSignal): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(parent.reason);
  if (parent.aborted) onAbort();
  else parent.addEventListener('abort', onAbort, { once: true });
  return { controller, dispose: () => parent.removeEventListener('abort', onAbort) };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
