// upload/job: the job loop. UploadJob drives one exam from its journal: plan → (compress) →
// create the exam → transfer → confirm, each step journaled so that a run can be resumed.
// The top room of upload: it may import every other room.
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
export { sweepOrphanArchives } from './archive-sweep';
