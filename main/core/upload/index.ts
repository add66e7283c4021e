// The upload engine's public surface (see README.md in this folder).
export { examsPortFromClient } from './ports/api-port';
export { AUTO_ZIP_MAX_BYTES, AUTO_ZIP_MAX_MEAN_FILE_BYTES, AUTO_ZIP_MIN_FILES, chooseMode } from './plan/auto-mode';
export { UploadJob } from './job/engine';
export type {
  EngineOptions,
  FileProgress,
  JobDeps,
  JobStatus,
  NoticeCode,
  NoticeParams,
  UploadEvent,
  UploadResult,
} from './job/engine';
export { UploadError } from './ports/upload-errors';
export type { UploadErrorCode } from './ports/upload-errors';
export { findFolderJobs, jobsDir, listUnfinishedJobs, pruneFinishedJobs } from './state/job-store';
export { MAX_FILES_PER_EXAM, MAX_NAME_LENGTH, MAX_ZIP_BYTES } from './plan/limits';
export { fingerprintOf, formatBytes, planUpload, settingsHash } from './plan/plan';
export type { JobPlan, PlanFileInput, PlannedFile, RequestedMode } from './plan/plan';
export { ExamsPortError } from './ports/ports';
export type {
  CreateExamInput,
  CreatedExam,
  ExamFields,
  ExamSummary,
  ExamsPort,
  ExamType,
  UploadMode,
} from './ports/ports';
export type { Totals } from './state/progress';
export { TokenBucket } from './transfer/token-bucket';
