// From complete exports to uploaded exams: for each study of a ready export, consult the ledger,
// apply the folder's mode and exam type, claim the study on the share, upload it through the
// injected upload function, then write the done marker and the ledger entry.
//
// What happens to each study:
//   - in the ledger with the same file set, or a done marker with the same file set: skipped;
//   - in the ledger (or a done marker) with a different file set: `study:changed`, never uploaded
//     on its own — the inbox offers it as "already uploaded, files differ";
//   - folder in review mode: `study:review` (the inbox uploads it when staff confirm);
//   - claimed by another live agent: `study:held` (once per holder), looked at again every
//     `heldRetryMs` until that agent's done marker appears or its claim goes stale;
//   - otherwise uploaded; a failed upload releases its claim and is reported (`study:failed`);
//     it is tried again when the export changes or the watcher restarts.
import { EventEmitter } from 'node:events';
import type { ExamType, Study } from '../dicom';
import { studyFingerprint } from '../dicom';
import { tryClaim } from './claims';
import type { Claim, ClaimOptions } from './claims';
import type { Ledger, LedgerKey } from './ledger';
import type { ExportReady, WatchFolderConfig } from './types';

/** What the coordinator asks of the upload engine for one study. */
export type UploadTask = {
  folder: WatchFolderConfig;
  exportPath: string;
  study: Study;
  exam_type: ExamType;
  /** Aborts on shutdown or when another agent took the claim over. */
  signal: AbortSignal;
};

export type UploadOutcome = { exam_id: string; files: number; bytes: number };
export type UploadStudy = (job: UploadTask) => Promise<UploadOutcome>;

type StudyRef = { folderId: string; exportPath: string; study: Study };

export type CoordinatorEvents = {
  'study:uploading': [StudyRef & { exam_type: ExamType }];
  'study:uploaded': [StudyRef & UploadOutcome];
  'study:skipped': [StudyRef & { reason: 'already_uploaded' | 'uploaded_elsewhere'; exam_id: string }];
  'study:changed': [StudyRef & { exam_id: string }];
  'study:review': [StudyRef & { exam_type: ExamType }];
  'study:held': [StudyRef & { by: string }];
  'study:failed': [StudyRef & { error: Error }];
  /** Uploaded, but something after it went wrong (e.g. the done marker could not be written). */
  'study:warning': [StudyRef & { message: string }];
  /** Claims cannot be written in the export folder: agents watching it cannot coordinate. */
  'study:unclaimable': [StudyRef & { reason: string }];
};

export type CoordinatorOptions = {
  ledger: Ledger;
  upload: UploadStudy;
  claims: ClaimOptions;
  /** How often a study claimed by another agent is looked at again (default 5 s). */
  heldRetryMs?: number;
};

type Task = { folder: WatchFolderConfig; exportPath: string; study: Study; key: LedgerKey; heldBy?: string };

/** Turns `export:ready` / `export:changed` into uploads, one study at a time (see the file comment). */
export class UploadCoordinator extends EventEmitter<CoordinatorEvents> {
  private readonly queue: Task[] = [];
  private readonly queued = new Set<string>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private readonly shutdown = new AbortController();
  private running: Promise<void> | undefined;
  private readonly heldRetryMs: number;

  constructor(private readonly options: CoordinatorOptions) {
    super();
    this.heldRetryMs = options.heldRetryMs ?? 5_000;
  }

  /** Queues every study of a complete export (from `export:ready` or `export:changed`). */
  offer(folder: WatchFolderConfig, ready: ExportReady): void {
    for (const study of ready.studies) this.enqueue({ folder, exportPath: ready.exportPath, study, key: { study_uid: study.study_uid, fingerprint: studyFingerprint(study) } });
  }

  /** Resolves when nothing is queued or running (retries of held studies may still be pending). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops: aborts the upload in progress (its claim is released) and drops what is queued. */
  async close(): Promise<void> {
    this.shutdown.abort(new Error('shutting down'));
    for (const t of this.retryTimers) clearTimeout(t);
    this.retryTimers.clear();
    this.queue.length = 0;
    this.queued.clear();
    await this.idle();
  }

  private enqueue(task: Task): void {
    if (this.shutdown.signal.aborted) return;
    const id = `${task.exportPath}\0${task.key.study_uid}\0${task.key.fingerprint}`;
    if (this.queued.has(id)) return;
    this.queued.add(id);
    this.queue.push(task);
    this.kick();
  }

  private kick(): void {
    if (this.running) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      // A task queued between the loop's last look and here would otherwise wait for the next one.
      if (this.queue.length > 0) this.kick();
    });
  }

  private async drain(): Promise<void> {
    for (let task = this.queue.shift(); task; task = this.queue.shift()) {
      try {
        await this.process(task);
      } catch (e) {
        // The ledger could not be read or written: report, and let a later event try again.
        this.emit('study:failed', { folderId: task.folder.id, exportPath: task.exportPath, study: task.study, error: e instanceof Error ? e : new Error(String(e)) });
      } finally {
        this.queued.delete(`${task.exportPath}\0${task.key.study_uid}\0${task.key.fingerprint}`);
      }
    }
  }

  private retryLater(task: Task): void {
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      this.enqueue(task);
    }, this.heldRetryMs);
    this.retryTimers.add(timer);
  }

  private async process(task: Task): Promise<void> {
    const { folder, exportPath, study, key } = task;
    const ref: StudyRef = { folderId: folder.id, exportPath, study };
    const { ledger } = this.options;
    const status = await ledger.status(key);
    if (status.kind === 'uploaded') {
      this.emit('study:skipped', { ...ref, reason: 'already_uploaded', exam_id: status.exam_id });
      return;
    }
    if (status.kind === 'changed') {
      this.emit('study:changed', { ...ref, exam_id: status.exam_id });
      return;
    }
    const examType = folder.exam_type === 'from_dicom' ? study.suggested_exam_type : folder.exam_type;
    if (folder.mode === 'review') {
      this.emit('study:review', { ...ref, exam_type: examType });
      return;
    }

    let claim: Claim | undefined;
    let outcome;
    try {
      outcome = await tryClaim(exportPath, key, this.options.claims);
    } catch (e) {
      this.emit('study:failed', { ...ref, error: e instanceof Error ? e : new Error(String(e)) });
      return;
    }
    switch (outcome.kind) {
      case 'done':
        if (outcome.same) {
          await ledger.record({ ...key, files: study.files, bytes: study.bytes }, outcome.marker.exam_id, 'elsewhere');
          this.emit('study:skipped', { ...ref, reason: 'uploaded_elsewhere', exam_id: outcome.marker.exam_id });
        } else {
          this.emit('study:changed', { ...ref, exam_id: outcome.marker.exam_id });
        }
        return;
      case 'held':
        if (task.heldBy !== outcome.by) this.emit('study:held', { ...ref, by: outcome.by });
        this.retryLater({ ...task, heldBy: outcome.by });
        return;
      case 'unclaimable':
        this.emit('study:unclaimable', { ...ref, reason: outcome.reason });
        break;
      case 'won':
        claim = outcome.claim;
        break;
    }

    const signal = claim ? AbortSignal.any([this.shutdown.signal, claim.lost]) : this.shutdown.signal;
    this.emit('study:uploading', { ...ref, exam_type: examType });
    let result: UploadOutcome;
    try {
      result = await this.options.upload({ folder, exportPath, study, exam_type: examType, signal });
    } catch (e) {
      await claim?.release();
      if (!this.shutdown.signal.aborted) this.emit('study:failed', { ...ref, error: e instanceof Error ? e : new Error(String(e)) });
      return;
    }
    // The done marker first: a crash right after it leaves a marker that both this agent (on
    // restart) and the others honour; a ledger entry alone would not stop the other agents.
    try {
      await claim?.complete(result.exam_id, result.files, result.bytes);
    } catch (e) {
      this.emit('study:warning', { ...ref, message: e instanceof Error ? e.message : String(e) });
    }
    try {
      await ledger.record({ ...key, files: result.files, bytes: result.bytes }, result.exam_id);
    } catch (e) {
      this.emit('study:warning', { ...ref, message: `uploaded as ${result.exam_id}, but the ledger could not be written: ${e instanceof Error ? e.message : String(e)}` });
    }
    this.emit('study:uploaded', { ...ref, ...result });
  }
}
