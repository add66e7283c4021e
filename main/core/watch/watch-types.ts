// Shapes of the export watcher: a watched folder's configuration and the events it emits.
import type { Skipped, Study } from '../dicom';
import type { WatchFolder } from '../settings/settings-schema';

/**
 * One configured watch folder, as the settings store it: `exam_type` (`from_dicom` or a fixed
 * type), `mode` (`auto` uploads complete exports, `review` only offers them), `settle_seconds`
 * (how long an export must be quiet) and `polling` (for network shares).
 */
export type WatchFolderConfig = WatchFolder;

/** Why an export that has gone quiet is still not taken as complete. */
export type IncompleteReason =
  | { kind: 'truncated_file'; path: string }
  | { kind: 'unreadable_file'; path: string }
  | { kind: 'pixel_data_incomplete'; path: string }
  | { kind: 'fewer_files_than_dicomdir'; study_uid: string; files: number; expected: number }
  | { kind: 'changed_while_checking' };

/** A complete export, scanned into studies. */
export type ExportReady = {
  folderId: string;
  /** The export folder (a top-level sub-folder of the watched folder, or the watched folder itself for loose files). */
  exportPath: string;
  studies: Study[];
  /** Files of the export that are not part of any study (not DICOM, unreadable…), marker files excluded. */
  skipped: Skipped[];
  /** 1 the first time the export is complete; higher when it changed after having been reported. */
  revision: number;
};

export type ExportWaiting = {
  folderId: string;
  exportPath: string;
  reasons: IncompleteReason[];
  /** The export as scanned (studies with their cut-short files, skipped files): the inbox shows what is missing. */
  studies?: Study[];
  skipped?: Skipped[];
};

/** Events of a `FolderWatcher`. */
export type FolderWatcherEvents = {
  /** An export became complete for the first time. */
  'export:ready': [ExportReady];
  /** An export already reported as ready changed (files added, removed or rewritten) and is complete again. */
  'export:changed': [ExportReady];
  /** An export has gone quiet but is not whole yet (e.g. a truncated file); sent when the reasons change. */
  'export:waiting': [ExportWaiting];
  /** An export folder disappeared. */
  'export:removed': [{ folderId: string; exportPath: string }];
  /** A watched folder missing at start-up, or lost since, appeared and is watched now. */
  'folder:appeared': [{ folderId: string; path: string; lostSince: string | null }];
  /** A watched folder went away (unmounted, renamed away) or another folder took its place; looked for again. */
  'folder:lost': [{ folderId: string; path: string; since: string }];
  /** The watcher found every export present at start-up (their checks may still be running). */
  ready: [];
  /** A problem that does not stop the watcher (a folder that cannot be read, a failed scan). */
  error: [Error];
};
