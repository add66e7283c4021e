// upload/state: what a job is and where it is kept. Its options, statuses and events, its target
// (a new exam or an extra take), its progress, the records it journals, the store of journals on
// disk (unfinished jobs, jobs of a folder) and the share intents of finished ones.
export type { Totals, CompressionTotals } from './progress';
export { extraTakePort, TARGET_ENGINE_OPTIONS } from './target';
export type { UploadTarget } from './target';
export { findFolderJobs, jobsDir, listUnfinishedJobs, pruneFinishedJobs } from './job-store';
export { journalDamageWords } from './journal-damage-words';
export { readyShareIntents } from './share-intents';
export { noticeWords } from './notice-words';
