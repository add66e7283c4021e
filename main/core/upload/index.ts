// The upload engine's public surface (see README.md in this folder).
export { examsPortFromClient } from './api-port';
export { AUTO_ZIP_MAX_BYTES, AUTO_ZIP_MAX_MEAN_FILE_BYTES, AUTO_ZIP_MIN_FILES, chooseMode } from './auto-mode';
export { UploadJob } from './engine';
export type {
  EngineOptions,
  FileProgress,
  JobDeps,
  JobStatus,
  NoticeCode,
  NoticeParams,
  UploadEvent,
  UploadResult,
} from './engine';
export { UploadError } from './upload-errors';
export type { UploadErrorCode } from './upload-errors';
export { findFolderJobs, jobsDir, listUnfinishedJobs, pruneFinishedJobs } from './job-store';
export { MAX_FILES_PER_EXAM, MAX_NAME_LENGTH, MAX_ZIP_BYTES } from './limits';
export { fingerprintOf, planUpload, settingsHash } from './plan';
export type { JobPlan, PlanFileInput, PlannedFile, RequestedMode } from './plan';
export { ExamsPortError } from './ports';
export type { CreateExamInput, CreatedExam, ExamFields, ExamSummary, ExamsPort, ExamType, UploadMode } from './ports';
export type { Totals } from './progress';
export { TokenBucket } from './token-bucket';
