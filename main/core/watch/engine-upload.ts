// The coordinator's upload function on top of the upload engine: one engine job per study, found
// again after an interruption (its journal is keyed by the study's folder and checked against
// the study's files), so a restarted watcher resumes the same exam instead of creating another.
import { fitFieldsToService } from '../upload/field-limits';
import { findFolderJobs } from '../upload/job-store';
import { uploadLockKeys, withStudyLock } from '../upload/study-lock';
import { UploadJob } from '../upload/engine';
import type { EngineOptions, UploadEvent } from '../upload/engine';
import { planUpload } from '../upload/plan';
import type { RequestedMode } from '../upload/plan';
import type { ExamFields, ExamsPort } from '../upload/ports';
import type { ExamType, Study } from '../dicom';
import type { UploadStudy, UploadTask } from './coordinator';

export type EngineUploaderOptions = {
  port: ExamsPort;
  /** The app data folder (the engine keeps its journals under it). */
  dataDir: string;
  /** The exam fields to create the exam with (name and patient prefill). */
  fields: (study: Study, examType: ExamType) => ExamFields;
  mode?: RequestedMode;
  engine?: EngineOptions;
  /** Engine events of the job running for `job`. */
  onEvent?: (job: UploadTask, event: UploadEvent) => void;
};

/** Builds an `UploadStudy` that sends a study's files through the upload engine. */
export function engineUploader(options: EngineUploaderOptions): UploadStudy {
  const deps = { port: options.port, dataDir: options.dataDir, options: options.engine ?? {} };
  return async (task) => {
    const { study, signal } = task;
    signal.throwIfAborted();
    const files = study.series.flatMap((s) => s.file_list).map((f) => ({ path: f.path, name: f.relative_path }));
    const plan = await planUpload({ root: study.root, fields: fitFieldsToService(options.fields(study, task.exam_type)).fields, files, mode: options.mode ?? 'auto', studyUids: [study.study_uid] });
    // Issue 12: one upload of a study at a time on this computer (the app, `upload`, `serve`, `watch`).
    return withStudyLock(options.dataDir, uploadLockKeys(study.root, [study.study_uid]), async () => {
    let job: UploadJob | undefined;
    const { unfinished } = findFolderJobs(options.dataDir, study.root);
    if (unfinished) {
      const previous = UploadJob.open(unfinished, deps);
      // Another study in the same folder, or files that changed since: not this job.
      if (previous.fingerprint === plan.fingerprint && previous.phase !== 'failed' && previous.phase !== 'cancelled') job = previous;
    }
    job ??= UploadJob.create(plan, deps);
    const running = job;
    const unsubscribe = options.onEvent ? running.on((e) => options.onEvent?.(task, e)) : undefined;
    const onAbort = (): void => void running.stop();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const result = await running.run();
      return { exam_id: result.exam_id, files: result.files, bytes: result.bytes };
    } finally {
      signal.removeEventListener('abort', onAbort);
      unsubscribe?.();
    }
    });
  };
}
