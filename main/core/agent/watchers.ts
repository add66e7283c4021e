// The configured watch folders, running: one WatchService, rebuilt when the folder settings change.
// Folders in review mode fill the inbox; folders in auto mode upload through the agent's queue
// (so those jobs show in the window like any other) and their studies appear in the inbox as queued.
import type { Skipped } from '../dicom';
import type { FolderWatcherOptions, Ledger, UploadStudy, WatchFolderConfig } from '../watch';
import { newAgentId, WatchService } from '../watch';
import type { Logger } from './contract';
import { offerIncompleteStudies } from './incomplete-exports';
import type { Inbox } from './inbox';
import type { UploadQueue } from './upload-queue';

export type WatchersOptions = {
  ledger: Ledger;
  inbox: Inbox;
  queue: UploadQueue;
  log: Logger;
  watcher?: FolderWatcherOptions;
  /** How often a study another computer is uploading is looked at again. */
  heldRetryMs?: number;
};

function codeOf(err: Error): string {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? `${err.name} ${code}` : err.name;
}

const signatureOf = (folders: readonly WatchFolderConfig[]): string =>
  JSON.stringify(folders.map((f) => [f.id, f.path, f.exam_type, f.mode, f.settle_seconds, f.polling]));

export class Watchers {
  private service: WatchService | null = null;
  private signature = '';
  private readonly agentId = newAgentId();
  /** The skipped files of each export, from its last ready/changed report. */
  private readonly skipped = new Map<string, readonly Skipped[]>();
  private applying: Promise<void> = Promise.resolve();

  constructor(private readonly o: WatchersOptions) {}

  /** Watches exactly these folders (restarts only when they changed). Resolves once existing exports are listed. */
  apply(folders: readonly WatchFolderConfig[]): Promise<void> {
    const next = this.applying.then(() => this.applyNow(folders));
    this.applying = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    await this.applying;
    await this.service?.close();
    this.service = null;
    this.signature = '';
  }

  private async applyNow(folders: readonly WatchFolderConfig[]): Promise<void> {
    const signature = signatureOf(folders);
    if (signature === this.signature && this.service) return;
    await this.service?.close();
    this.service = null;
    this.signature = signature;
    if (folders.length === 0) return;
    const service = new WatchService({
      folders: [...folders],
      ledger: this.o.ledger,
      claims: { agentId: this.agentId },
      upload: this.uploader(),
      ...(this.o.heldRetryMs !== undefined ? { heldRetryMs: this.o.heldRetryMs } : {}),
      ...(this.o.watcher ? { watcher: this.o.watcher } : {}),
    });
    this.wire(service);
    this.service = service;
    await service.start();
  }

  /** Auto mode: the study goes to the inbox as queued and through the agent's queue. */
  private uploader(): UploadStudy {
    return async (task) => {
      const { inbox, queue } = this.o;
      const item = inbox.detected({ folder: task.folder, exportPath: task.exportPath, study: task.study, skipped: this.skipped.get(task.exportPath) ?? [], changedSinceUpload: false }, 'queued');
      if (!item) throw new Error('study not in the inbox');
      const request = await inbox.uploadRequest(item.id, 'auto');
      const view = await queue.enqueue(request);
      inbox.setStatus(item.id, 'queued', view.id);
      const result = await queue.waitFor(view.id, task.signal);
      return { exam_id: result.exam_id, files: result.files, bytes: result.bytes };
    };
  }

  private wire(service: WatchService): void {
    const { inbox, log } = this.o;
    const byId = new Map(service.watchers.map((w) => [w.config.id, w.config]));
    const folderOf = (id: string): WatchFolderConfig | undefined => byId.get(id);
    for (const w of service.watchers) {
      // Registered after the service's own listener: the skipped list is cached before the coordinator looks at the studies.
      w.on('export:ready', (e) => this.skipped.set(e.exportPath, e.skipped));
      w.on('export:changed', (e) => this.skipped.set(e.exportPath, e.skipped));
      // Issue 12: a study that cannot be read whole shows in the inbox with its files named.
      w.on('export:waiting', (e) => offerIncompleteStudies(inbox, w.config, e));
      w.on('export:removed', (e) => {
        this.skipped.delete(e.exportPath);
        inbox.exportRemoved(e.exportPath);
      });
      // Messages here carry paths, and export folders are often named after the patient: codes only.
      w.on('error', (err) => log.warn(`watch folder ${w.config.id}: ${codeOf(err)}`));
    }
    const c = service.coordinator;
    c.on('study:review', (e) => {
      const folder = folderOf(e.folderId);
      if (folder) inbox.detected({ folder, exportPath: e.exportPath, study: e.study, skipped: this.skipped.get(e.exportPath) ?? [], changedSinceUpload: false });
    });
    c.on('study:changed', (e) => {
      const folder = folderOf(e.folderId);
      if (folder) inbox.detected({ folder, exportPath: e.exportPath, study: e.study, skipped: this.skipped.get(e.exportPath) ?? [], changedSinceUpload: true });
    });
    c.on('study:failed', (e) => log.warn(`automatic upload from folder ${e.folderId} failed: ${codeOf(e.error)}`));
    c.on('study:warning', (e) => log.warn(`watch folder ${e.folderId}: a step after an upload failed (done marker or ledger)`));
    c.on('study:unclaimable', (e) => log.warn(`watch folder ${e.folderId}: ${e.reason}`));
  }
}
