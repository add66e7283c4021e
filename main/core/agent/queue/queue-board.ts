// The upload queue's entries and how each change is published: the window gets the changed views
// (batched, a few pushes a second), the list on disk is saved a moment later, and the tray hears
// when the queue's overall status may have moved. The queue (upload-queue.ts) decides; the board
// keeps and tells.
import type { AgentStatus, UploadJobView, UploadPhase } from '../../../../preload/contract';
import { ChangeBatcher } from '../host/change-batcher';
import { ContractFailure } from '../host/contract-host';
import type { Logger } from '../../log';
import { type Entry, isLive, type QueueState, recordOf } from './queue-entry';
import { type JobRecord, UploadListFile } from './upload-list-store';
import { Emitter } from '../../emitter';

const byCreated = (a: Entry, b: Entry): number =>
  a.view.created_at < b.view.created_at ? -1 : a.view.created_at > b.view.created_at ? 1 : 0;

export class QueueBoard {
  private readonly entries = new Map<string, Entry>();
  private readonly batcher: ChangeBatcher<UploadJobView>;
  private readonly store: UploadListFile;
  /** Tray updates must not break uploads. */
  private readonly statusChanges = new Emitter<[]>();

  constructor(o: {
    file: string;
    keepFinished?: number | undefined;
    log: Logger;
    batchMs?: number | undefined;
    push: (changed: UploadJobView[]) => void;
  }) {
    this.batcher = new ChangeBatcher({ intervalMs: o.batchMs ?? 250, push: o.push });
    this.store = new UploadListFile({
      file: o.file,
      keepFinished: o.keepFinished,
      log: o.log,
      records: () => this.newestFirst().map(recordOf),
    });
  }

  /** The entry of a job; a ContractFailure for the window when there is none. */
  get(id: string): Entry {
    const e = this.entries.get(id);
    if (!e) throw new ContractFailure('not_found', 'No such upload.');
    return e;
  }

  all(): Entry[] {
    return [...this.entries.values()];
  }

  newestFirst(): Entry[] {
    return this.all().sort((a, b) => byCreated(b, a));
  }

  oldestFirst(): Entry[] {
    return this.all().sort(byCreated);
  }

  /** Adds an entry; `isNew`: a job just queued (published and saved), not one read back from disk. */
  add(e: Entry, isNew: boolean): void {
    this.entries.set(e.view.id, e);
    if (!isNew) return;
    this.changed(e, true);
    this.statusChanged();
  }

  /** Drops entries; saves and tells when any was there. */
  remove(ids: readonly string[]): void {
    let removed = false;
    for (const id of ids) removed = this.entries.delete(id) || removed;
    if (!removed) return;
    this.store.schedule();
    this.statusChanged();
  }

  /** idle, uploading (something runs or waits to), or error (a job failed and waits for staff). */
  status(): AgentStatus {
    let uploading = false;
    for (const e of this.entries.values()) {
      if (e.state.kind === 'needs_staff') return 'error';
      if (isLive(e.state)) uploading = true;
    }
    return uploading ? 'uploading' : 'idle';
  }

  /** Calls `listener` whenever `status()` may have changed. */
  onStatus(listener: () => void): () => void {
    return this.statusChanges.subscribe(listener);
  }

  /** Moves an entry to another queue state, and its view to the phase that shows it. */
  moveTo(e: Entry, state: QueueState, phase: UploadPhase): void {
    const wasLive = isLive(e.state);
    e.state = state;
    this.setPhase(e, phase);
    if (wasLive !== isLive(state)) this.statusChanged();
  }

  setPhase(e: Entry, phase: UploadPhase): void {
    const moved = e.view.phase !== phase;
    e.view = { ...e.view, phase };
    this.changed(e, moved);
    if (moved) this.statusChanged();
  }

  /** The view changed: pushed to the window soon; `save`: the list on disk too. */
  changed(e: Entry, save = false): void {
    e.view = { ...e.view, updated_at: new Date().toISOString() };
    this.batcher.mark(e.view.id, { ...e.view });
    if (save) this.store.schedule();
  }

  statusChanged(): void {
    this.statusChanges.emit();
  }

  /** The saved list (read once, at start). */
  read(): Promise<JobRecord[]> {
    return this.store.read();
  }

  /** Waits for a pending save. */
  flush(): Promise<void> {
    return this.store.flush();
  }

  /** Stops pushing and writes the list a last time. */
  async close(): Promise<void> {
    this.batcher.close();
    await this.store.close();
  }
}
