// What the agent's work looks like in the log: exports found, what became of each study, how each
// upload ended. Written from the activity hub (the same events a headless front end prints), with
// ids, a hash of the study's UID, codes and numbers only (core/log/logger.ts).
import type { UploadJobView } from '../../../preload/contract';
import { type Logger, studyHash, type StudyHash } from '../log';
import type { ActivityEvents, ActivityHub, JobOrigin } from './pipeline/agent-activity';

const studyOf = (origin: JobOrigin): StudyHash | undefined => (origin ? studyHash(origin.study_uid) : undefined);

const jobFields = (view: UploadJobView, origin: JobOrigin) => ({
  job: view.id,
  exam_id: view.exam_id,
  study: studyOf(origin),
  folder: origin?.folderId,
});

/** Logs the agent's activity; returns the unsubscribe. */
export function logActivity(activity: ActivityHub, log: Logger): () => void {
  const off: (() => void)[] = [];
  const on = <K extends keyof ActivityEvents>(name: K, listener: (...args: ActivityEvents[K]) => void): void => {
    const l = listener as Parameters<ActivityHub['on']>[1];
    activity.on(name, l);
    off.push(() => activity.off(name, l));
  };
  on('export:ready', (e) => log.info('export ready', { folder: e.folderId, count: e.studies.length }));
  on('export:changed', (e) => log.info('export changed', { folder: e.folderId, count: e.studies.length }));
  on('export:waiting', (e) => log.debug?.('export not complete yet', { folder: e.folderId, count: e.reasons.length }));
  on('study:skipped', (e) =>
    log.info('study already uploaded', {
      folder: e.folderId,
      study: studyHash(e.study.study_uid),
      exam_id: e.exam_id,
      code: e.reason,
    }),
  );
  on('study:held', (e) =>
    log.info('study held by another computer', { folder: e.folderId, study: studyHash(e.study.study_uid) }),
  );
  on('study:queued', (e) =>
    log.info('study queued for upload', {
      folder: e.folderId,
      study: studyHash(e.study.study_uid),
      job: e.job_id,
      files: e.study.files,
    }),
  );
  on('upload:ready', (e) =>
    log.info('upload ready', { ...jobFields(e.view, e.origin), files: e.files, bytes: e.bytes }),
  );
  on('upload:ended', (e) =>
    log[e.view.phase === 'failed' ? 'warn' : 'info']('upload ended', {
      ...jobFields(e.view, e.origin),
      phase: e.view.phase,
      code: e.view.error?.code,
      kind: e.view.error?.net?.kind,
    }),
  );
  on('upload:retrying', (e) =>
    log.warn('upload will retry', {
      ...jobFields(e.view, e.origin),
      code: e.view.error?.code,
      kind: e.view.error?.net?.kind,
    }),
  );
  on('upload:struggling', (e) =>
    log.warn('upload keeps failing; still retrying', { ...jobFields(e.view, e.origin), code: e.view.error?.code }),
  );
  return () => off.forEach((f) => f());
}
