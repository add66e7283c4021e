// upload/journal: a job's append-only journal (the record of every step, replayed to resume), and
// the study locks that keep two processes from uploading the same study at once.
export { readFirstRecord } from './journal';
export type { ShareIntent, SummaryRecord } from './journal';
export { acquireStudyLock, folderKey, pruneStudyLocks, studyKey, uploadLockKeys, withStudyLock } from './study-lock';
export type { StudyLock } from './study-lock';
