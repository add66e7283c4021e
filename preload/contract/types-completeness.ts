// A study that cannot be read whole (issue: an exam is whole or it is not sent).

/** Why a file of a study cannot be read whole. */
export type IncompleteReason = 'cut_short' | 'unreadable' | 'permission_denied' | 'damaged';

/** One such file, named relative to the study's folder. */
export type IncompleteFileView = { name: string; reason: IncompleteReason };
