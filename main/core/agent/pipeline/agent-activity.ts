// What the agent is doing, for a headless front end (`scanbridge watch` prints it): exports the
// watchers found, what became of each study, and how its upload ended. The window does not need
// it (it has the contract's events); nothing here is persisted.
import { EventEmitter } from 'node:events';
import type { UploadJobView } from '../../../../preload/contract';
import type { ExamType, Study } from '../../dicom';
import type { ExportReady, ExportWaiting, FolderWatcherEvents, StudyRouterEvents } from '../../watch';

/** Where a job's study came from, when the inbox still knows it. */
export type JobOrigin = { folderId: string | null; exportPath: string; study_uid: string } | null;

export type ActivityEvents = {
  'export:ready': [ExportReady];
  'export:changed': [ExportReady];
  'export:waiting': [ExportWaiting];
  'watch:error': [{ folderId: string; error: Error }];
  /** A watched folder cannot be reached (a share dropped, renamed away); looked for again. */
  'folder:lost': FolderWatcherEvents['folder:lost'];
  /** A watched folder is back (or appeared after start-up) and watched again. */
  'folder:appeared': FolderWatcherEvents['folder:appeared'];
  'study:skipped': StudyRouterEvents['study:skipped'];
  'study:held': StudyRouterEvents['study:held'];
  'study:unclaimable': StudyRouterEvents['study:unclaimable'];
  'study:failed': StudyRouterEvents['study:failed'];
  /** An automatic upload was queued. */
  'study:queued': [{ folderId: string; exportPath: string; study: Study; exam_type: ExamType; job_id: string }];
  'upload:ready': [{ view: UploadJobView; origin: JobOrigin; files: number; bytes: number }];
  /** Failed for good, or cancelled. */
  'upload:ended': [{ view: UploadJobView; origin: JobOrigin }];
  /** Failed on a network fault; it tries again by itself at `view.retry_at` (each time). */
  'upload:retrying': [{ view: UploadJobView; origin: JobOrigin }];
  /** Failed several times in a row on network faults; it keeps retrying by itself. */
  'upload:struggling': [{ view: UploadJobView; origin: JobOrigin }];
};

export class ActivityHub extends EventEmitter<ActivityEvents> {}
