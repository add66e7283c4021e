// The DICOM listener as the agent runs it: the network side (listener.ts), the received files on
// disk and the completeness bookkeeping (study-tracker.ts), saved so that a restart carries on.
//
// On disk, under `<data>/receive/` (private: 0700 folders, 0600 files):
//   incoming/           objects being received (a restart removes what is left)
//   studies/st_<hash>/  one folder per Study Instance UID, one `<SOP Instance UID>.dcm` per object
//                       (a resent object replaces its file: the same file set, the same fingerprint)
//   state.json          the tracker's records (no patient data: UIDs, the sender, counts, times)
//
// A complete study's folder is handed on (`study:complete`) to the same path as a folder export.
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdir, readFile, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DebouncedSave, writeJsonAtomic } from '../atomic-file';
import { DiskFullError, isNoSpace } from '../disk-full';
import { parseDicomPrefix, readDicomHeader } from '../dicom';
import type { DicomHeader } from '../dicom';
import { ensurePrivateDir } from '../private-fs';
import { type ObjectIds, readObjectIds } from './object-ids';
import { writeObjectFile } from './object-file';
import { warmStorePath } from './warm-up';
import type { SinkResult } from './part10';
import type { AssociationInfo, IncomingObject, ListenerConfig, RunningListener } from './listener';
import { ListenError, startListener } from './listener';
import { type StudyRecord, studyRecordSchema, StudyTracker } from './study-tracker';
import { errorCode, type Logger } from '../log';
import type { ReceiveProblem, ReceiveStatus } from '../../../preload/contract';
import { neededMegabytes, receiveProblemWords } from './problem-words';

export type ReceiveConfig = ListenerConfig & {
  port: number;
  /** Interface to listen on (default: all). */
  host?: string;
  quietSeconds: number;
  /** How long a study cut off by an abort waits for a resend before staff are asked. */
  stoppedAfterMinutes: number;
  /** What the agent does with a complete study: upload it (`auto`) or offer it to staff (`review`). */
  mode: 'auto' | 'review';
};

export type ReceivedFrom = { calling_aet: string; address: string };

/** A received study handed on: its folder (an export of its own), where it came from. */
export type ReceivedStudy = { study_uid: string; folder: string; from: ReceivedFrom; stopped: boolean };

export type ReceiveServiceEvents = {
  'study:complete': [ReceivedStudy];
  'study:stopped': [ReceivedStudy];
  state: [ReceiveStatus];
};

const stateFileSchema = z.object({ v: z.literal(1), studies: z.array(studyRecordSchema) });

const MAX_ERRORS = 10;

export const studyDirName = (studyUid: string): string =>
  `st_${createHash('sha256').update(studyUid, 'utf8').digest('hex').slice(0, 20)}`;

export type ReceiveServiceOptions = {
  root: string;
  config: ReceiveConfig;
  log: Logger;
  /** How often due studies are looked for (default: a quarter of the quiet time, at most 1 s). */
  tickMs?: number;
};

export class ReceiveService extends EventEmitter<ReceiveServiceEvents> {
  private config: ReceiveConfig;
  private readonly tracker: StudyTracker;
  private readonly save: DebouncedSave;
  private listener: RunningListener | null = null;
  private timer: NodeJS.Timeout | undefined;
  private current: ReceiveStatus;
  private readonly incoming: string;
  private readonly studies: string;
  /** Study folders known to exist. */
  private readonly folders = new Set<string>();
  /** When a write first found the disk full (null while there is room). */
  private fullSince: number | null = null;

  constructor(private readonly o: ReceiveServiceOptions) {
    super();
    this.config = o.config;
    this.incoming = join(o.root, 'incoming');
    this.studies = join(o.root, 'studies');
    this.tracker = new StudyTracker(timingOf(o.config));
    this.save = new DebouncedSave(
      () => writeJsonAtomic(join(o.root, 'state.json'), { v: 1, studies: this.tracker.list() }),
      200,
      (e) => {
        // The state is kept in memory and written again once there is room.
        if (isNoSpace(e)) this.diskFull(new DiskFullError(o.root, 0, { cause: e }));
        else this.o.log.warn('the received-studies state could not be saved', { code: errorCode(e) });
      },
    );
    this.current = {
      state: 'stopped',
      port: null,
      ae_title: o.config.aeTitle,
      problem: null,
      message: null,
      last_association: null,
      errors: [],
    };
  }

  state(): ReceiveStatus {
    return this.current;
  }

  /** Opens the port; resolves with it (or rejects with a ListenError). Studies left complete are handed on again. */
  async start(): Promise<number> {
    for (const dir of [this.o.root, this.incoming, this.studies]) ensurePrivateDir(dir);
    await this.loadState();
    for (const f of await readdir(this.incoming)) await unlink(join(this.incoming, f)).catch(() => undefined);
    // The first association after a start is as quick as the next ones (see warm-up.ts).
    await warmStorePath().catch(() => undefined);
    try {
      this.listener = await startListener(this.config.port, this.config.host, {
        config: () => this.config,
        incoming: this.incoming,
        handlers: {
          stored: (a, obj) => this.file(a, obj),
          ended: (a, how, objects) => this.ended(a, how, objects),
          problem: (m) => this.problem(m),
          log: this.o.log,
        },
      });
    } catch (e) {
      const problem: ReceiveProblem =
        e instanceof ListenError ? e.problem : { code: 'listen_failed', port: this.config.port, errno: errorCode(e) };
      this.setState({
        state: problem.code === 'port_in_use' ? 'port_in_use' : 'failed',
        port: this.config.port,
        problem,
        message: this.words(problem),
      });
      throw e;
    }
    this.setState({ state: 'listening', port: this.listener.port, problem: null, message: null });
    const tickMs = this.o.tickMs ?? Math.max(50, Math.min(1000, (this.config.quietSeconds * 1000) / 4));
    this.timer = setInterval(() => this.tick(), tickMs);
    this.timer.unref();
    // Studies handed on before a restart go the same way again: the ledger and the inbox know them.
    for (const r of this.tracker.list())
      if (r.handed_at !== null && !r.needs_resend) this.emitStudy('study:complete', r);
    return this.listener.port;
  }

  /** New AE title, allow-list, exam type or timing; a new port needs a restart (the agent does it). */
  reconfigure(config: ReceiveConfig): void {
    this.config = config;
    this.tracker.setTiming(timingOf(config));
    this.setState({ ae_title: config.aeTitle });
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.listener?.close();
    this.listener = null;
    await this.save.flush();
    this.setState({ state: 'stopped', problem: null, message: null });
  }

  private async loadState(): Promise<void> {
    let text: string;
    try {
      text = await readFile(join(this.o.root, 'state.json'), 'utf8');
    } catch {
      return;
    }
    const parsed = stateFileSchema.safeParse(safeJson(text));
    if (parsed.success) this.tracker.load(parsed.data.studies);
    else this.o.log.warn('the received-studies state file could not be read; starting afresh (files kept)');
  }

  /** An object received whole: read its study, put it in its study's folder (replacing a resent copy). */
  private async file(a: AssociationInfo, obj: IncomingObject): Promise<boolean> {
    const { content } = obj;
    const ids = await idsOf(obj);
    if (!ids || ids.sopInstanceUid !== obj.sopInstanceUid || !ids.studyUid) {
      if (content.kind === 'file') await unlink(content.path).catch(() => undefined);
      this.o.log.warn('an object could not be read as DICOM; the sender was told', {
        aet: a.callingAet,
        peer: a.address,
      });
      this.problem({ code: 'not_dicom', calling_aet: a.callingAet, address: a.address });
      return false;
    }
    const dir = studyDirName(ids.studyUid);
    const folder = join(this.studies, dir);
    const target = join(folder, `${obj.sopInstanceUid}.dcm`);
    try {
      if (!this.folders.has(dir)) {
        await mkdir(folder, { recursive: true, mode: 0o700 });
        this.folders.add(dir);
      }
      if (content.kind === 'file') await rename(content.path, target);
      else writeObjectFile(target, content.chunks);
    } catch (e) {
      if (!isNoSpace(e)) throw e;
      // A full disk: nothing half-written is kept, the sender is refused "out of resources" (it
      // keeps the object and sends it again) and the listener goes on listening.
      await unlink(target).catch(() => undefined);
      this.diskFull(new DiskFullError(this.o.root, content.bytes, { cause: e }));
      throw new DiskFullError(this.o.root, content.bytes, { cause: e });
    }
    if (this.fullSince !== null) {
      this.fullSince = null;
      this.o.log.info('there is room on the disk again; received objects are stored');
      this.setState({ problem: null, message: null });
    }
    this.tracker.stored(ids.studyUid, dir, a, Date.now());
    this.save.schedule();
    return true;
  }

  private ended(a: AssociationInfo, how: 'released' | 'aborted', objects: number): void {
    this.tracker.ended(a.id, how);
    this.save.schedule();
    this.o.log.info('association ended', { aet: a.callingAet, peer: a.address, code: how, count: objects });
    this.setState({
      last_association: {
        calling_aet: a.callingAet,
        address: a.address,
        at: new Date().toISOString(),
        outcome: how,
        objects,
      },
    });
  }

  /** Said once while the disk stays full (the log, the listener's errors and its state message). */
  private diskFull(err: DiskFullError): void {
    if (this.fullSince !== null) return;
    this.fullSince = Date.now();
    this.o.log.warn('the disk is full; objects are refused until there is room', { bytes: err.needed });
    const problem: ReceiveProblem = { code: 'disk_full', needed_mb: neededMegabytes(err.needed) };
    this.problem(problem);
    this.setState({ problem, message: this.words(problem) });
  }

  /** A problem for the front ends' listener state (the log has its own line, written where it happened). */
  private problem(problem: ReceiveProblem): void {
    const entry = { at: new Date().toISOString(), problem, message: this.words(problem) };
    this.setState({ errors: [...this.current.errors, entry].slice(-MAX_ERRORS) });
  }

  /** A problem in English words (the state's `message`, for the log and the support bundle). */
  private words(problem: ReceiveProblem): string {
    return receiveProblemWords(problem, 'en', this.o.root);
  }

  private tick(): void {
    const due = this.tracker.due(Date.now());
    if (due.length === 0) return;
    this.save.schedule();
    for (const v of due) this.emitStudy(v.kind === 'complete' ? 'study:complete' : 'study:stopped', v.record);
  }

  private emitStudy(event: 'study:complete' | 'study:stopped', r: StudyRecord): void {
    this.emit(event, {
      study_uid: r.study_uid,
      folder: join(this.studies, r.dir),
      from: { calling_aet: r.calling_aet, address: r.address },
      stopped: event === 'study:stopped',
    });
  }

  private setState(patch: Partial<ReceiveStatus>): void {
    this.current = { ...this.current, ...patch };
    this.emit('state', this.current);
  }
}

const DEFLATED_LE = '1.2.840.10008.1.2.1.99';

/** The object's Study and SOP Instance UIDs: read lightly from memory (object-ids.ts), else from its full header. */
async function idsOf(obj: IncomingObject): Promise<ObjectIds | null> {
  const { content } = obj;
  if (content.kind === 'memory' && obj.transferSyntaxUid !== DEFLATED_LE)
    return readObjectIds(content.chunks, content.bytes);
  const header = await headerOf(content);
  return header ? { studyUid: header.study_uid, sopInstanceUid: header.sop_instance_uid } : null;
}

async function headerOf(content: SinkResult): Promise<DicomHeader | null> {
  if (content.kind === 'file') {
    const probe = await readDicomHeader(content.path);
    return probe.outcome.kind === 'dicom' ? probe.outcome.header : null;
  }
  // The header is at the start: the first chunks up to 64 KiB, or everything if it runs longer.
  const first: Buffer[] = [];
  let size = 0;
  for (const c of content.chunks) {
    if (size >= 64 * 1024) break;
    first.push(c);
    size += c.length;
  }
  let step = parseDicomPrefix(Buffer.concat(first), content.bytes);
  if (step.kind === 'need_more') step = parseDicomPrefix(Buffer.concat(content.chunks), content.bytes);
  return step.kind === 'dicom' ? step.header : null;
}

function timingOf(c: ReceiveConfig): { quietMs: number; stoppedAfterMs: number } {
  return { quietMs: c.quietSeconds * 1000, stoppedAfterMs: c.stoppedAfterMinutes * 60_000 };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
