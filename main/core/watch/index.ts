// The export watcher's public face: folder watching, completeness, the ledger and share claims.
export { Claim, newAgentId, readDoneMarker, studyHash, tryClaim, writeDoneMarker } from './claims';
export type { ClaimOptions, ClaimOutcome, DoneMarker } from './claims';
export { StudyRouter } from './study-router';
export type { DetectedStudy, StudyRouterEvents, StudyRouterOptions } from './study-router';
export { FolderWatcher } from './folder-watcher';
export type { FolderWatcherOptions } from './folder-watcher';
export { Ledger, ledgerKey } from './ledger';
export type { LedgerEntry, LedgerKey, LedgerStatus } from './ledger';
export { isMarkerFile } from './snapshot';
export { WatchService } from './watch-service';
export type { WatchServiceOptions } from './watch-service';
export type * from './watch-types';
