// The upload engine's public surface (see README.md in this folder). Each room of upload has an
// entry point of its own (ports/, transfer/, plan/, compression/, journal/, state/, job/), which
// the rest of the core imports; this one gathers the most used names.
export { examsPortFromClient, ExamsPortError, UploadError } from './ports';
export type {
  CreateExamInput,
  CreatedExam,
  ExamFields,
  ExamSummary,
  ExamsPort,
  ExamType,
  UploadErrorCode,
  UploadMode,
} from './ports';
export {
  AUTO_ZIP_MAX_BYTES,
  AUTO_ZIP_MAX_MEAN_FILE_BYTES,
  AUTO_ZIP_MIN_FILES,
  chooseMode,
  fingerprintOf,
  MAX_FILES_PER_EXAM,
  MAX_NAME_LENGTH,
  MAX_ZIP_BYTES,
  planUpload,
  settingsHash,
} from './plan';
export type { JobPlan, PlanFileInput, PlannedFile, RequestedMode } from './plan';
export { UploadJob } from './job';
export type {
  EngineOptions,
  FileProgress,
  JobDeps,
  JobStatus,
  NoticeCode,
  NoticeParams,
  UploadEvent,
  UploadResult,
} from './job';
export { findFolderJobs, jobsDir, listUnfinishedJobs, pruneFinishedJobs } from './state';
export type { Totals } from './state';
export { TokenBucket } from './transfer';
