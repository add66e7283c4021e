// An export that went quiet with files that cannot be read whole (a slice cut short, a file
// without read permission) is never uploaded by itself. Its studies still reach the inbox, with
// the files named, so the front desk knows why nothing is happening and can wait for the files or
// upload the rest after confirming (Inbox.uploadRequest enforces the confirmation).
import { studyIncompleteFiles } from '../../upload/plan';
import type { ExportWaiting, WatchFolderConfig } from '../../watch';
import type { Inbox } from './inbox';

/** Puts the studies of a waiting export that have unreadable or cut-short files in the inbox, for review. */
export function offerIncompleteStudies(inbox: Inbox, folder: WatchFolderConfig, e: ExportWaiting): void {
  const skipped = e.skipped ?? [];
  for (const study of e.studies ?? []) {
    if (studyIncompleteFiles(study, skipped).length === 0) continue;
    inbox.detected({ folder, exportPath: e.exportPath, study, skipped, changedSinceUpload: false }, 'review');
  }
}
