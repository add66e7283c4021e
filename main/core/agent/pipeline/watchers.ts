// The configured watch folders, running: one WatchService, rebuilt when the folder settings change.
// Every detected study goes to the inbox (the one place that turns a study into exam fields);
// studies of auto folders then go straight on to the queue. Nothing here waits on an upload: the
// queue runs it, and the exam recorder writes the done marker and the ledger when it is ready.
import { diskFullIn } from '../../disk-full';
import type { FolderWatcherOptions, Ledger, WatchFolderConfig } from '../../watch';
import { WatchService } from '../../watch';
import type { DetectedStudy } from '../../watch';
import type { ActivityHub } from './agent-activity';
import { offerIncompleteStudies } from '../inbox/incomplete-exports';
import type { Logger } from '../../log';
import type { ExamRecorder } from './exam-recorder';
import { takeInStudy } from './study-intake';
import type { Inbox } from '../inbox/inbox';
import type { UploadQueue } from '../queue/upload-queue';
import { errorCode, studyHash } from '../../log';

export type WatchersOptions = {
  ledger: Ledger;
  inbox: Inbox;
  queue: UploadQueue;
  recorder: ExamRecorder;
  agentId: string;
  log: Logger;
  activity: ActivityHub;
  watcher?: FolderWatcherOptions;
  /** How often a study another computer is uploading is looked at again. */
  heldRetryMs?: number;
};

/** How soon a study that met a full disk is taken in again. */
const DISK_RETRY_MS = 5_000;

const signatureOf = (folders: readonly WatchFolderConfig[]): string =>
  JSON.stringify(folders.map((f) => [f.id, f.path, f.exam_type, f.mode, f.settle_seconds, f.polling]));

export class Watchers {
  private service: WatchService | null = null;
  private signature = '';
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
      claims: { agentId: this.o.agentId },
      ...(this.o.heldRetryMs !== undefined ? { heldRetryMs: this.o.heldRetryMs } : {}),
      ...(this.o.watcher ? { watcher: this.o.watcher } : {}),
    });
    this.wire(service);
    this.service = service;
    await service.start();
  }

  /** A detected study: into the inbox; from an auto folder, on to the queue at once. */
  private detected(d: DetectedStudy): Promise<void> {
    return takeInStudy(d, this.o);
  }

  /**
   * A detected study into the inbox and the queue. On a full disk (the inbox, the journal) it is
   * tried again every DISK_RETRY_MS while these watchers run: when there is room it goes on by
   * itself, instead of waiting for the export to change.
   */
  private takeIn(service: WatchService, d: DetectedStudy): void {
    const { log, activity } = this.o;
    this.detected(d).catch((e: unknown) => {
      const error = e instanceof Error ? e : new Error(String(e));
      log.warn('a detected study could not be queued', {
        folder: d.folder.id,
        study: studyHash(d.study.study_uid),
        code: errorCode(error),
      });
      activity.emit('study:failed', { folderId: d.folder.id, exportPath: d.exportPath, study: d.study, error });
      if (!diskFullIn(error)) return;
      setTimeout(() => {
        if (this.service === service) this.takeIn(service, d);
      }, DISK_RETRY_MS);
    });
  }

  private wire(service: WatchService): void {
    const { inbox, log, activity } = this.o;
    for (const w of service.watchers) {
      w.on('export:ready', (e) => activity.emit('export:ready', e));
      w.on('export:changed', (e) => activity.emit('export:changed', e));
      w.on('export:waiting', (e) => {
        // A study that cannot be read whole shows in the inbox with its files named.
        offerIncompleteStudies(inbox, w.config, e);
        activity.emit('export:waiting', e);
      });
      w.on('export:removed', (e) => inbox.exportRemoved(e.exportPath));
      w.on('folder:lost', (e) => {
        log.warn('watch folder cannot be reached; looked for again', { folder: w.config.id });
        activity.emit('folder:lost', e);
      });
      w.on('folder:appeared', (e) => {
        if (e.lostSince) log.info('watch folder reachable again; watched again', { folder: w.config.id });
        activity.emit('folder:appeared', e);
      });
      // Messages here carry paths, and export folders are often named after the patient: codes only.
      w.on('error', (err) => {
        log.warn('watch folder failed', { folder: w.config.id, code: errorCode(err) });
        activity.emit('watch:error', { folderId: w.config.id, error: err });
      });
    }
    const r = service.router;
    r.on('study:detected', (d) => this.takeIn(service, d));
    r.on('study:skipped', (e) => activity.emit('study:skipped', e));
    r.on('study:held', (e) => activity.emit('study:held', e));
    r.on('study:failed', (e) => {
      log.warn('a study could not be checked', { folder: e.folderId, code: errorCode(e.error) });
      activity.emit('study:failed', e);
    });
    r.on('study:unclaimable', (e) => {
      log.warn('a study cannot be claimed on its share', { folder: e.folderId, code: e.reason });
      activity.emit('study:unclaimable', e);
    });
  }
}
