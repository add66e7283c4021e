// The steps of a job that talk to the service about its exam, each journaled before or after it
// happens: create it, remove what a lost create left behind, replace it when its upload links
// expire, confirm it, and leave nothing half-made behind after a final failure or a cancel.
// UploadJob (engine.ts) decides when each step runs; the steps decide what the journal says.
import { randomUUID } from 'node:crypto';
import { backoffDelayMs, sleep, CLOCK_SKEW_WARN_MS } from '../../api/http';
import {
  ControlSignal,
  DURABILITY,
  type ENGINE_DEFAULTS,
  type JobStatus,
  type NoticeCode,
  type NoticeParams,
} from '../state/engine-types';
import { isAbortError, UploadError } from '../ports/upload-errors';
import { orphanRemovedMessage } from '../ports/failure-text';
import { noticeWords } from '../state/notice-words';
import { uploadFailureOf } from './failures';
import { diskFullIn } from '../../disk-full';
import { clockSkewWords } from '../../net/clock-words';
import { clockSkewOf, createdRecordOf, summaryOf, zipWireSize } from '../state/job-records';
import { applyRecord, type JobState } from '../journal/journal-replay';
import { examIdsOfOtherJobs, waitWhileOthersCreate } from '../state/job-store';
import type { Journal, JournalRecord } from '../journal/journal';
import { findOrphans, looksLikeExamOf } from '../state/orphans';
import { journalDamageFacts, journalDamageWords } from '../state/journal-damage-words';
import {
  type CallOptions,
  type CreateExamInput,
  type CreatedExam,
  type ExamSummary,
  type ExamsPort,
  ExamsPortError,
} from '../ports/ports';

/** The engine's settings once its defaults are filled in. */
export type EngineSettings = typeof ENGINE_DEFAULTS;

/** What the steps need of the job that runs them: its events and its progress counters. */
export type StepHost = {
  emitStatus(status: JobStatus): void;
  notice(code: NoticeCode, message: string, params?: NoticeParams): void;
  /** The journal changed what counts as sent (a new exam, files to send again): progress follows it. */
  resetProgress(): void;
};

export class ExamSteps {
  /** API calls made by this job in this process (the CLI reports them). */
  apiCalls = 0;
  /** Resolves once a finished job's journal has been compacted. */
  compacting: Promise<void> = Promise.resolve();
  // Exams replaced in this run (lost creates, expired links, files missing after confirm).
  private recreations = 0;
  // True once this process sent a create for the job (any run of it), so an exam the orphan
  // search finds is reported as "answer lost", not "left half-made by an interrupted run".
  private createSentThisRun = false;
  // The clock's skew is said once per job in this process.
  private clockSaid = false;

  constructor(
    private readonly journal: Journal,
    private readonly state: JobState,
    private readonly port: ExamsPort,
    private readonly dataDir: string,
    private readonly opts: EngineSettings,
    private readonly host: StepHost,
  ) {}

  /** A new run may replace its exam `maxExamRecreations` times again. */
  newRun(): void {
    this.recreations = 0;
  }

  /** Journals a record and applies it to the job's state. */
  append(record: JournalRecord): void {
    this.journal.append(record, DURABILITY[record.t]);
    applyRecord(this.state, record);
  }

  /** Rewrites a finished job's journal as its one summary line. */
  compact(outcome: 'ready' | 'failed' | 'cancelled', examId: string | null, code?: string): void {
    try {
      this.journal.compact(summaryOf(this.state.plan, outcome, examId, code));
    } catch (err) {
      // A full disk: the whole journal stays, replays to the same end, and is compacted when next opened.
      if (!diskFullIn(err)) throw err;
    }
  }

  async create(signal: AbortSignal): Promise<void> {
    this.host.emitStatus('creating');
    const plan = this.state.plan;
    const input: CreateExamInput =
      plan.mode === 'files'
        ? { ...plan.fields, upload_mode: 'files', files: plan.files.map((f) => ({ name: f.name, size: f.size })) }
        : { ...plan.fields, upload_mode: 'zip', zip_size_bytes: zipWireSize(this.state) };
    // The intent is durable before the request leaves: a crash from here on is followed by an
    // orphan search instead of a blind second create.
    this.append({ t: 'creating', marker: randomUUID(), at: Date.now() });
    this.createSentThisRun = true;
    let created: CreatedExam;
    try {
      created = await this.api((c) => this.port.createExam(input, c), signal);
    } catch (err) {
      if (err instanceof ExamsPortError && err.kind === 'transient') {
        // Unknown outcome: the next loop looks for the exam it may have made, removes it, creates again.
        if (++this.recreations > this.opts.maxExamRecreations) throw err;
        await sleep(backoffDelayMs(this.recreations - 1, this.opts.backoff), signal);
        return;
      }
      if (
        err instanceof ExamsPortError &&
        (err.kind === 'rejected' || err.kind === 'not_found' || err.kind === 'upload_incomplete')
      ) {
        // Refused: nothing was created.
        this.state.phase = 'planned';
        throw new UploadError('rejected', `The service refused to create the exam: ${err.message}`, false, {
          cause: err,
        });
      }
      throw err;
    }
    const record = createdRecordOf(plan, created, Date.now());
    if (!record) {
      await this.deleteQuietly(created.id);
      this.append({ t: 'discarded', exam_id: created.id, reason: 'bad_answer' });
      throw new UploadError('rejected', 'The service answered the exam creation without the expected upload links.');
    }
    this.append(record);
    this.host.resetProgress();
    this.sayClockSkew(record.created_at, record.got_at ?? Date.now());
  }

  /** A local clock minutes or more off the service's is said once a run; the upload goes on. */
  private sayClockSkew(createdAt: string, gotAt: number): void {
    const skew = this.port.serviceOffsetMs?.() ?? null;
    const local = skew !== null ? -skew : clockSkewOf(createdAt, gotAt);
    if (this.clockSaid || local === null || Math.abs(local) < CLOCK_SKEW_WARN_MS) return;
    this.clockSaid = true;
    this.host.notice('clock_skew', clockSkewWords(local, 'en'), { skew_ms: local });
  }

  /**
   * After a create whose answer was lost (crash, time-out, 5xx): find the exam it may have made.
   * API v1 cannot hand out its upload URLs again, so it cannot be filled: it is deleted, and the
   * caller creates a fresh one. Matches: same name, patient id, mode and file count, still
   * uploading, created after the intent (less the clock skew), and not known to any other job.
   */
  async removeOrphans(signal: AbortSignal | undefined): Promise<number> {
    const intent = this.state.intent;
    if (!intent) return 0;
    // An exam another live job is creating right now looks like ours; wait until that
    // job has journaled its answer (its exam id then joins `known`), never delete it.
    await waitWhileOthersCreate(this.dataDir, this.journal.path, signal);
    const recent = await this.api((c) => this.port.listRecentExams(100, c), signal);
    const known = new Set([...examIdsOfOtherJobs(this.dataDir, this.journal.path), ...this.state.discarded]);
    // The intent's time is this computer's; the exams' creation times are the service's. The offset
    // read off the list's own answer puts them on one clock, so a local clock that is off neither
    // hides an orphan nor takes an older exam for one; the allowance covers what the offset misses.
    const offset = this.port.serviceOffsetMs?.() ?? 0;
    const orphans = findOrphans(recent, this.state.plan, intent.at + offset - this.opts.clockSkewMs, known);
    for (const e of orphans) {
      await this.api((c) => this.port.deleteExam(e.id, c), signal);
      this.append({ t: 'discarded', exam_id: e.id, reason: 'orphan' });
      this.host.notice('orphan_removed', orphanRemovedMessage(e.id, this.createSentThisRun), {
        exam_id: e.id,
        this_run: this.createSentThisRun,
      });
    }
    this.state.intent = null;
    return orphans.length;
  }

  /**
   * The journal cannot be trusted whole (a damaged line, or this job replaces damaged journals of
   * its folder): what did those runs leave on the service? A ready exam of this study is taken as
   * the job's result (never a second exam); half-made ones are removed (their upload links are
   * lost); the exam the readable journal names goes on if the service still has it. What was found
   * and done is said in a notice, and journaled (`recovered`) so it is not done twice.
   */
  async recover(signal: AbortSignal): Promise<void> {
    const r = this.state.recovery;
    if (!r) return;
    await waitWhileOthersCreate(this.dataDir, this.journal.path, signal);
    const recent = await this.api((c) => this.port.listRecentExams(100, c), signal);
    const offset = this.port.serviceOffsetMs?.() ?? 0;
    const known = new Set([...examIdsOfOtherJobs(this.dataDir, this.journal.path), ...this.state.discarded]);
    const named = new Set(r.named);
    const found = new Map<string, ExamSummary>();
    for (const id of named) {
      const e = recent.find((x) => x.id === id) ?? (await this.api((c) => this.port.getExam(id, c), signal));
      if (e) found.set(e.id, e);
    }
    const notBefore = r.notBefore + offset - this.opts.clockSkewMs;
    for (const e of recent) if (!known.has(e.id) && looksLikeExamOf(e, this.state.plan, notBefore)) found.set(e.id, e);
    const facts = journalDamageFacts(r.damage, this.journal.path);
    const ready = [...found.values()].find((e) => e.status === 'ready');
    if (ready) {
      this.append({ t: 'recovered', at: Date.now(), exam_id: ready.id });
      this.append({ t: 'ready', exam_id: ready.id, at: Date.now() });
      const params = { ...facts, ready_exam: ready.id };
      this.host.notice('journal_damaged', journalDamageWords(params, 'en'), params);
      return;
    }
    // The exam the journal names, still on the service and still uploading, goes on; any other is removed.
    const current = this.state.exam;
    if (current && found.get(current.id)?.status !== 'uploading') {
      this.append({ t: 'discarded', exam_id: current.id, reason: 'journal_damaged' });
    }
    const removed: string[] = [];
    for (const e of found.values()) {
      if (e.id === this.state.exam?.id || e.status === 'ready') continue;
      await this.api((c) => this.port.deleteExam(e.id, c), signal);
      this.append({ t: 'discarded', exam_id: e.id, reason: 'journal_damaged' });
      removed.push(e.id);
    }
    if (this.state.phase === 'creating') {
      this.state.phase = 'planned';
      this.state.intent = null;
    }
    const kept = this.state.exam?.id ?? null;
    this.append({ t: 'recovered', at: Date.now(), exam_id: kept });
    const params = { ...facts, removed: removed.join(', '), kept: kept ?? '' };
    this.host.notice('journal_damaged', journalDamageWords(params, 'en'), params);
  }

  /** The exam's upload links expired before its files were sent: the exam is deleted and the plan starts again. */
  async replaceExpired(signal: AbortSignal): Promise<void> {
    if (++this.recreations > this.opts.maxExamRecreations) {
      throw new UploadError(
        'urls_keep_expiring',
        'The upload links keep expiring before the files are sent; check the connection speed and the computer clock, then run the upload again.',
      );
    }
    const exam = this.state.exam;
    if (exam) {
      await this.api((c) => this.port.deleteExam(exam.id, c), signal);
      this.append({ t: 'discarded', exam_id: exam.id, reason: 'url_expired' });
      this.host.resetProgress();
    }
    this.host.notice('exam_recreated', noticeWords('exam_recreated', { why: 'expired' }, 'en') ?? '', {
      why: 'expired',
    });
  }

  /**
   * Streamed compression: the archive came out larger than the size its exam was declared with
   * (the estimate was low). The archive is complete and kept; the exam is deleted and made again
   * with the archive's exact size.
   */
  async replaceOverBudget(signal: AbortSignal): Promise<void> {
    const exam = this.state.exam;
    const size = this.state.archive?.size;
    if (!exam || size === undefined) throw new Error('no exam or archive to replace');
    await this.api((c) => this.port.deleteExam(exam.id, c), signal);
    this.append({ t: 'discarded', exam_id: exam.id, reason: 'over_budget' });
    this.append({ t: 'budget', size });
    this.host.resetProgress();
    this.host.notice('exam_recreated', noticeWords('exam_recreated', { why: 'over_budget' }, 'en') ?? '', {
      why: 'over_budget',
    });
  }

  /** Confirms the exam (files mode) or asks the service to unpack the ZIP; journals `ready`. */
  async finish(signal: AbortSignal): Promise<void> {
    const plan = this.state.plan;
    const exam = this.state.exam;
    if (!exam) throw new Error('no exam to finish');
    this.host.emitStatus('confirming');
    let answer: ExamSummary;
    try {
      answer =
        plan.mode === 'files'
          ? await this.api((c) => this.port.confirmExam(exam.id, c), signal)
          : await this.api((c) => this.port.processZip(exam.id, c), signal);
    } catch (err) {
      if (err instanceof ExamsPortError && err.kind === 'upload_incomplete') {
        // Storage lost or never got what the journal says was sent: send those again, once.
        if (++this.recreations > this.opts.maxExamRecreations) {
          throw new UploadError(
            'incomplete_after_confirm',
            'The service keeps reporting files missing after they were sent.',
            false,
            { cause: err },
          );
        }
        const missing = new Set(err.details.missing ?? []);
        const idx =
          plan.mode === 'zip' || missing.size === 0
            ? plan.files.map((_, i) => i)
            : plan.files.flatMap((f, i) => (missing.has(f.name) ? [i] : []));
        this.append({ t: 'undone', i: idx });
        if (plan.mode === 'zip') this.state.phase = 'created';
        this.host.resetProgress();
        const missingFacts = { count: idx.length };
        this.host.notice('files_missing', noticeWords('files_missing', missingFacts, 'en') ?? '', missingFacts);
        return;
      }
      if (err instanceof ExamsPortError && err.kind === 'not_found')
        throw new UploadError('exam_deleted', 'The exam was deleted on the service before it was confirmed.');
      if (err instanceof ExamsPortError && err.kind === 'rejected')
        throw new UploadError('rejected', `The service refused to finish the exam: ${err.message}`, false, {
          cause: err,
        });
      throw err;
    }
    if (answer.status !== 'ready')
      throw new UploadError('network', `The service answered with the exam still "${answer.status}".`, true);
    this.append({ t: 'ready', exam_id: exam.id, at: Date.now() });
    this.host.resetProgress();
    this.host.emitStatus('ready');
    // Off the critical path: the exam is ready whatever happens to the journal now.
    this.compacting = this.journal.compactInBackground(summaryOf(plan, 'ready', exam.id)).catch(() => undefined);
  }

  /** Decides what a failed run leaves behind, and returns the error to throw. */
  async settleFailure(err: unknown, signal: AbortSignal): Promise<Error> {
    const reason: unknown = signal.aborted ? signal.reason : null;
    if (reason instanceof ControlSignal && reason.kind === 'cancel') {
      await this.cancel();
      return new UploadError('cancelled', 'The upload was cancelled and its exam removed.');
    }
    if (reason instanceof ControlSignal || (signal.aborted && isAbortError(err))) {
      this.host.emitStatus('interrupted');
      return new UploadError('interrupted', 'The upload was interrupted; run it again to continue.', true);
    }
    const failure = uploadFailureOf(err);
    if (failure.resumable) {
      this.host.emitStatus('interrupted');
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
    this.host.emitStatus('failed');
    this.compact('failed', exam?.id ?? null, failure.code);
    return new UploadError(failure.code, message, false, { cause: failure });
  }

  /** Deletes the half-made exam (or what a lost create left) and journals the cancellation. */
  async cancel(): Promise<void> {
    const exam = this.state.exam;
    try {
      if (exam) {
        await this.api((c) => this.port.deleteExam(exam.id, c), undefined);
        this.append({ t: 'discarded', exam_id: exam.id, reason: 'cancelled' });
      } else if (this.state.phase === 'creating') {
        await this.removeOrphans(undefined);
      }
    } catch (err) {
      throw new UploadError(
        'network',
        `The upload was stopped but its exam could not be removed (${err instanceof Error ? err.message : String(err)}); cancel again when the service is reachable.`,
        true,
        { cause: err },
      );
    }
    this.append({ t: 'cancelled', at: Date.now() });
    this.host.emitStatus('cancelled');
    this.compact('cancelled', exam?.id ?? null);
  }

  private async deleteQuietly(id: string): Promise<boolean> {
    try {
      await this.api((c) => this.port.deleteExam(id, c), undefined);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * One API call through the port. The API client is the one retry layer (429s waited out,
   * transient faults of idempotent calls retried, by endpoint); each of its waits becomes a
   * notice here.
   */
  private async api<T>(call: (o: CallOptions) => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    this.apiCalls++;
    return call({
      ...(signal ? { signal } : {}),
      onRetry: (r) => {
        const [code, params] =
          r.reason === 'rate_limited'
            ? (['rate_limited', { seconds: Math.ceil(r.delayMs / 1000) }] as const)
            : (['api_retry', { code: r.code }] as const);
        this.host.notice(code, noticeWords(code, params, 'en') ?? '', params);
      },
    });
  }
}

/** What was found damaged, in a sentence (no patient data: the journal's path and line numbers only). */
