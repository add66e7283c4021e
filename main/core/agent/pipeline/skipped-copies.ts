// Copies of studies already uploaded that the watchers (or the DICOM listener) found again: no
// second exam is made (the ledger or the share's done marker knows the study), but staff who drop a
// copy into a watched folder must hear that it was seen and which exam it is, not find nothing.
// The latest few are kept in memory for the Inbox (`inbox:copies`); nothing is persisted.
import type { SkippedCopyView } from '../../../../preload/contract';
import type { ActivityHub } from './agent-activity';

const KEPT = 20;

export class SkippedCopies {
  private list: SkippedCopyView[] = [];

  constructor(
    private readonly onChange: (copies: SkippedCopyView[]) => void,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get current(): SkippedCopyView[] {
    return this.list;
  }

  /** A study found again: newest first, one entry per study and export (the latest sighting). */
  add(copy: Omit<SkippedCopyView, 'seen_at'>): void {
    const rest = this.list.filter((c) => !(c.study_uid === copy.study_uid && c.export_path === copy.export_path));
    this.list = [{ ...copy, seen_at: this.now().toISOString() }, ...rest].slice(0, KEPT);
    this.onChange(this.list);
  }

  /** Staff have read it: it leaves the Inbox. */
  dismiss(studyUid: string, exportPath: string): void {
    const before = this.list.length;
    this.list = this.list.filter((c) => !(c.study_uid === studyUid && c.export_path === exportPath));
    if (this.list.length !== before) this.onChange(this.list);
  }
}

/** The copies the watchers and the listener skip, as `activity` reports them. */
export function skippedCopiesOf(activity: ActivityHub, onChange: (copies: SkippedCopyView[]) => void): SkippedCopies {
  const copies = new SkippedCopies(onChange);
  activity.on('study:skipped', (e) =>
    copies.add({
      study_uid: e.study.study_uid,
      folder_id: e.folderId,
      export_path: e.exportPath,
      exam_id: e.exam_id,
      reason: e.reason,
    }),
  );
  return copies;
}
