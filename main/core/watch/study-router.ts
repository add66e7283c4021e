// From complete exports to detected studies: for each study of a ready export, consult the ledger
// and the share's done markers, apply the folder's mode and exam type and, for automatic uploads,
// claim the study on the share. It never uploads and never waits on an upload: what to do with a
// detected study is the agent's business (inbox, then queue), and the claim travels with it.
//
// What happens to each study:
//   - in the ledger with the same file set, or a done marker with the same file set: `study:skipped`;
//   - in the ledger (or a done marker) with a different file set: `study:detected` for review,
//     marked as changed — never uploaded on its own;
//   - folder in review mode: `study:detected` for review;
//   - claimed by another live agent: `study:held` (once per holder), looked at again every
//     `heldRetryMs` until that agent's done marker appears or its claim goes stale;
//   - otherwise `study:detected` for automatic upload, with this agent's claim (null when the
//     folder cannot hold claims: `study:unclaimable` says so first).
import { EventEmitter } from 'node:events';
import type { ExamType, Skipped, Study } from '../dicom';
import { studyFingerprint } from '../dicom';
import { tryClaim } from './claims';
import type { Claim, ClaimOptions } from './claims';
import type { Ledger, LedgerKey } from './ledger';
import type { ExportReady, WatchFolderConfig } from './watch-types';

type StudyRef = { folderId: string; exportPath: string; study: Study };

/** A study found in a complete export, and what the agent should do with it. */
export type DetectedStudy = {
  folder: WatchFolderConfig;
  exportPath: string;
  study: Study;
  exam_type: ExamType;
  /** The export's files that belong to no study (not DICOM, unreadable…). */
  skipped: readonly Skipped[];
  /** `auto`: upload it now; `review`: offer it to staff. */
  action: 'auto' | 'review';
  /** The exam this study was uploaded as before, with other files (never uploaded on its own then). */
  changedFrom: string | null;
  /** This agent's claim on the share (auto only; null when the folder cannot hold claims). */
  claim: Claim | null;
  key: LedgerKey;
};

export type StudyRouterEvents = {
  'study:detected': [DetectedStudy];
  'study:skipped': [StudyRef & { reason: 'already_uploaded' | 'uploaded_elsewhere'; exam_id: string }];
  'study:held': [StudyRef & { by: string }];
  /** The ledger or the share could not be read: tried again when the export changes or on restart. */
  'study:failed': [StudyRef & { error: Error }];
  /** Claims cannot be written in the export folder: agents watching it cannot coordinate. */
  'study:unclaimable': [StudyRef & { reason: string }];
};

export type StudyRouterOptions = {
  ledger: Ledger;
  claims: ClaimOptions;
  /** How often a study claimed by another agent is looked at again (default 5 s). */
  heldRetryMs?: number;
};

type Task = {
  folder: WatchFolderConfig;
  exportPath: string;
  study: Study;
  skipped: readonly Skipped[];
  key: LedgerKey;
  heldBy?: string;
};

const taskId = (t: Task): string => `${t.exportPath}\0${t.key.study_uid}\0${t.key.fingerprint}`;
const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

/** Turns `export:ready` / `export:changed` into detected studies (see the file comment). */
export class StudyRouter extends EventEmitter<StudyRouterEvents> {
  private readonly queue: Task[] = [];
  private readonly queued = new Set<string>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private closed = false;
  private running: Promise<void> | undefined;
  private readonly heldRetryMs: number;

  constructor(private readonly options: StudyRouterOptions) {
    super();
    this.heldRetryMs = options.heldRetryMs ?? 5_000;
  }

  /** Looks at every study of a complete export (from `export:ready` or `export:changed`). */
  offer(folder: WatchFolderConfig, ready: ExportReady): void {
    for (const study of ready.studies) {
      this.enqueue({
        folder,
        exportPath: ready.exportPath,
        study,
        skipped: ready.skipped,
        key: { study_uid: study.study_uid, fingerprint: studyFingerprint(study) },
      });
    }
  }

  /** Resolves when nothing is queued or being looked at (retries of held studies may be pending). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.retryTimers) clearTimeout(t);
    this.retryTimers.clear();
    this.queue.length = 0;
    this.queued.clear();
    await this.idle();
  }

  private enqueue(task: Task): void {
    if (this.closed || this.queued.has(taskId(task))) return;
    this.queued.add(taskId(task));
    this.queue.push(task);
    this.kick();
  }

  private kick(): void {
    if (this.running) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.queue.length > 0) this.kick();
    });
  }

  private async drain(): Promise<void> {
    for (let task = this.queue.shift(); task; task = this.queue.shift()) {
      try {
        await this.route(task);
      } catch (e) {
        this.emit('study:failed', {
          folderId: task.folder.id,
          exportPath: task.exportPath,
          study: task.study,
          error: asError(e),
        });
      } finally {
        this.queued.delete(taskId(task));
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

  private async route(task: Task): Promise<void> {
    const { folder, exportPath, study, key } = task;
    const ref: StudyRef = { folderId: folder.id, exportPath, study };
    const examType = folder.exam_type === 'from_dicom' ? study.suggested_exam_type : folder.exam_type;
    const detected = (action: 'auto' | 'review', changedFrom: string | null, claim: Claim | null): void => {
      if (this.closed) {
        void claim?.release();
        return;
      }
      this.emit('study:detected', {
        folder,
        exportPath,
        study,
        exam_type: examType,
        skipped: task.skipped,
        action,
        changedFrom,
        claim,
        key,
      });
    };
    const { ledger } = this.options;
    const status = await ledger.status(key);
    if (status.kind === 'uploaded')
      return void this.emit('study:skipped', { ...ref, reason: 'already_uploaded', exam_id: status.exam_id });
    if (status.kind === 'changed') return detected('review', status.exam_id, null);
    if (folder.mode === 'review') return detected('review', null, null);

    const outcome = await tryClaim(exportPath, key, this.options.claims);
    switch (outcome.kind) {
      case 'done':
        if (!outcome.same) return detected('review', outcome.marker.exam_id, null);
        await ledger.record({ ...key, files: study.files, bytes: study.bytes }, outcome.marker.exam_id, 'elsewhere');
        return void this.emit('study:skipped', {
          ...ref,
          reason: 'uploaded_elsewhere',
          exam_id: outcome.marker.exam_id,
        });
      case 'held':
        // This agent's own claim: its upload of the export's earlier files is superseded by these.
        if (outcome.by === this.options.claims.agentId) return detected('auto', null, null);
        if (task.heldBy !== outcome.by) this.emit('study:held', { ...ref, by: outcome.by });
        return this.retryLater({ ...task, heldBy: outcome.by });
      case 'unclaimable':
        this.emit('study:unclaimable', { ...ref, reason: outcome.reason });
        return detected('auto', null, null);
      case 'won':
        return detected('auto', null, outcome.claim);
    }
  }
}
