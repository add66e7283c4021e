// What the upload engine needs from the service, in its own minimal terms, so the engine does not
// depend on the API client's shape (the adapter is api-port.ts). The exam's fields are the
// service's own (api/exam-schemas.ts), less the expiry, which the queue sets once the exam is ready.
import type { ExamFields as ServiceExamFields } from '../../api/endpoints';
import type { RetryInfo } from '../../api';

export type { ExamType } from '../../api/endpoints';
export type UploadMode = 'files' | 'zip';

/** The exam fields a job sends on creation (API-v1.md §2.2), without the upload part. */
export type ExamFields = Omit<ServiceExamFields, 'expiration_days'>;

export type CreateExamInput = ExamFields &
  ({ upload_mode: 'files'; files: { name: string; size: number }[] } | { upload_mode: 'zip'; zip_size_bytes: number });

export type PresignedUrl = { url: string; expires_at: string };

/** POST /exams answer: the exam and where to put its bytes. */
export type CreatedExam = {
  id: string;
  created_at: string;
  /** Files mode: one URL per file, in request order. */
  upload_urls?: (PresignedUrl & { name: string })[];
  /** Zip mode: the archive's URL. */
  upload_url?: PresignedUrl;
};

/** The exam fields the engine reads back (list, get, confirm, process-zip). */
export type ExamSummary = {
  id: string;
  name: string;
  status: string;
  patient_id: string | null;
  file_count: number | null;
  upload_mode: string | null;
  created_at: string;
};

export type CallOptions = {
  signal?: AbortSignal;
  /** Told before each wait the API client makes for this call (the only retry layer for API calls). */
  onRetry?: (info: RetryInfo) => void;
};

export type ExamsPort = {
  createExam(input: CreateExamInput, opts?: CallOptions): Promise<CreatedExam>;
  confirmExam(id: string, opts?: CallOptions): Promise<ExamSummary>;
  processZip(id: string, opts?: CallOptions): Promise<ExamSummary>;
  /** Idempotent: deleting an exam that is already gone succeeds. */
  deleteExam(id: string, opts?: CallOptions): Promise<void>;
  /** null when the exam does not exist (or was deleted). */
  getExam(id: string, opts?: CallOptions): Promise<ExamSummary | null>;
  /** The account's newest exams, newest first. */
  listRecentExams(limit: number, opts?: CallOptions): Promise<ExamSummary[]>;
  /**
   * The service's clock less this computer's (ms), from its last answer's Date header; null or
   * absent when unknown. Times the service wrote (an exam's creation) are compared through it.
   */
  serviceOffsetMs?(): number | null;
};

/**
 * How a port call failed, as far as the engine cares:
 * - `rate_limited`: refused, retry after `retryAfterSeconds`;
 * - `not_found`: the exam does not exist;
 * - `upload_incomplete`: confirm found files missing (`missing` names);
 * - `rejected`: the service refused the request (4xx): nothing happened, retrying will not help;
 * - `transient`: network fault, time-out or 5xx: the request may or may not have been carried out.
 */
export type ExamsPortErrorKind = 'rate_limited' | 'not_found' | 'upload_incomplete' | 'rejected' | 'transient';

/** The only error type an ExamsPort throws (besides aborts). */
export class ExamsPortError extends Error {
  override name = 'ExamsPortError';
  constructor(
    readonly kind: ExamsPortErrorKind,
    message: string,
    readonly details: { status?: number; code?: string; retryAfterSeconds?: number; missing?: string[] } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
