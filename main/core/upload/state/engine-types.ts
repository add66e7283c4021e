// The upload engine's vocabulary: its options and their defaults, the job's statuses and events,
// the result of a run, and the internal signals the job's loop and its transfers exchange.
import type { BackoffPolicy } from '../../api/http';
import type { Durability, JournalRecord } from '../journal/journal';
import type { ExamsPort, UploadMode } from '../ports/ports';
import type { Totals } from './progress';
import type { TokenBucket } from '../transfer/token-bucket';

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
  /** Waits between storage attempts and exam re-creations (API calls are retried by the API client). */
  backoff?: BackoffPolicy;
  /** Times a job may replace its exam in one run (URLs expired) before it gives up. */
  maxExamRecreations?: number;
  /** Progress events come at most this often. */
  progressIntervalMs?: number;
  /** Allowance when matching a crashed create, on top of the clock offset read off the service's Date header. */
  clockSkewMs?: number;
  /** How often file completions are fsynced to the journal. */
  doneFlushMs?: number;
};

export const ENGINE_DEFAULTS = {
  concurrency: 6,
  stallTimeoutMs: 30_000,
  maxAttempts: 8,
  maxExamRecreations: 3,
  progressIntervalMs: 200,
  clockSkewMs: 10 * 60_000,
  doneFlushMs: 250,
  backoff: { baseMs: 500, capMs: 20_000 } as BackoffPolicy,
};

/**
 * How soon each record must survive a power cut. `creating` must be on disk before POST /exams
 * leaves, and removals before the next step; the rest only saves work after a power cut (without
 * `created`, a resume removes that exam and makes a new one; without `uploaded`/`ready`, it
 * confirms again, which is idempotent). Waiting for fsync on those would stall the transfers.
 */
export const DURABILITY: Record<JournalRecord['t'], Durability> = {
  planned: 'none',
  packed: 'background',
  compressed: 'sync',
  budget: 'sync',
  creating: 'sync',
  created: 'background',
  done: 'background',
  undone: 'sync',
  uploaded: 'none',
  discarded: 'sync',
  ready: 'background',
  failed: 'sync',
  cancelled: 'sync',
  recovered: 'sync',
  summary: 'sync',
};

/** A plan younger than this was stat'ed just now: no need to stat every file again before starting. */
export const FRESH_PLAN_MS = 10_000;

export type JobStatus =
  | 'planned'
  | 'compressing'
  | 'creating'
  | 'transferring'
  | 'paused'
  | 'confirming'
  | 'ready'
  | 'failed'
  | 'cancelled'
  | 'interrupted';

/** What happened to one file (a discriminated union the UI renders as it likes). */
export type FileProgress =
  | { state: 'sending'; attempt: number }
  | { state: 'retrying'; attempt: number; delayMs: number; reason: string }
  | { state: 'requeued' }
  | { state: 'done' };

export type NoticeCode =
  | 'resumed'
  | 'orphan_removed'
  | 'exam_recreated'
  | 'rate_limited'
  | 'api_retry'
  | 'files_missing'
  | 'clock_skew'
  | 'journal_damaged';

/**
 * The facts a notice is made of, so a front end can say it in its own language (the message is
 * the English sentence). Ids and counts only, never patient data.
 */
export type NoticeParams = Readonly<Record<string, string | number | boolean>>;

export type UploadEvent =
  | { type: 'status'; status: JobStatus; examId: string | null; totals: Totals }
  | { type: 'progress'; totals: Totals }
  /** `index`: the file's place in the plan, or -1 for the archive of a zip-mode upload. */
  | { type: 'file'; index: number; name: string; progress: FileProgress }
  | { type: 'notice'; code: NoticeCode; message: string; params?: NoticeParams };

export type UploadResult = {
  exam_id: string;
  status: 'ready';
  files: number;
  bytes: number;
  mode: UploadMode;
  /** True when this run continued a job an earlier run started. */
  resumed: boolean;
  /** Bytes put on the network since this process opened the job (every run of it, retries included). */
  bytes_sent: number;
  /** API calls made since this process opened the job, every run of it (storage PUTs are not API calls). */
  api_calls: number;
};

export type JobDeps = { port: ExamsPort; dataDir: string; options?: EngineOptions };

/** Why a run was aborted on purpose. */
export class ControlSignal extends Error {
  constructor(readonly kind: 'stop' | 'cancel' | 'pause') {
    super(`upload ${kind}`);
    this.name = 'AbortError';
  }
}

/** Internal: the exam's URLs expired; the job replaces the exam. */
export class UrlsExpired extends Error {}
/** Internal: storage says the exam is complete already. */
export class AlreadyComplete extends Error {}
