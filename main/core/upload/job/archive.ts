// The compressing step of a compressed zip-mode job: the study is deflated into
// `<data>/archives/<job id>.zip` (0600 in a 0700 folder), journaled as it goes (`packed`
// checkpoints, then `compressed` with the archive's size and sha256). It starts before the exam is
// created; the exam is declared with a budget (the archive's estimated size, journaled) and the
// archive is sent while it is written, padded up to that size (main/core/upload/README.md). A
// rerun after a crash continues from the last checkpoint, and a complete archive is reused after
// checking its size and sha256, never deflated again. The archive is deleted once the job ends.
import { rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { asDiskFull, isNoSpace } from '../../disk-full';
import {
  type ArchiveBudget,
  archiveOverhead,
  type PackState,
  sha256OfFile,
  writeDeflatedArchive,
} from '../compression/deflated-zip';
import type { GrowingFile } from '../transfer/file-source';
import { atShare, BUDGET_MARGIN, sampleStudy } from '../compression/compression-choice';
import { type Codec, FAST_CODEC, sharedDeflatePool, streamCodec, tasksOf } from '../compression/deflate-pool';
import type { NoticeParams } from '../state/engine-types';
import type { JobState } from '../journal/journal-replay';
import type { JournalRecord } from '../journal/journal';
import { recordDeflateRate } from '../compression/link-rate';
import { MAX_ZIP_BYTES } from '../plan/limits';
import { formatBytes } from '../../format-bytes';
import type { ProgressTracker } from '../state/progress';
import { UploadError } from '../ports/upload-errors';
import { ensurePrivateDir } from '../../private-fs';
import { noticeWords } from '../state/notice-words';

export const ARCHIVES_DIR = 'archives';

export function archivePathOf(dataDir: string, jobId: string): string {
  return join(dataDir, ARCHIVES_DIR, `${jobId}.zip`);
}

/** Removes a job's archive (the job ended, or its plan changed). */
export function removeArchive(dataDir: string, jobId: string): void {
  rmSync(archivePathOf(dataDir, jobId), { force: true });
}

/** What the step needs of its job. */
export type ArchiveHost = {
  state: JobState;
  dataDir: string;
  append(record: JournalRecord): void;
  waitIfPaused(signal: AbortSignal): Promise<void>;
  checkFiles(indices: readonly number[]): Promise<void>;
  /** Study bytes deflated so far, of all, and the archive's length so far. */
  progress(rawDone: number, rawTotal: number, archiveBytes: number): void;
  compressing(): void;
};

/**
 * Makes sure the job's archive is complete and intact on disk: reuses it when its size and sha256
 * match the journal (`verify`: hash it again, done once per process), continues or starts it
 * otherwise. Returns the archive's path.
 */
export async function ensureArchive(
  host: ArchiveHost,
  signal: AbortSignal,
  verify: boolean,
  stream: StreamHooks = {},
): Promise<string> {
  const { state, dataDir } = host;
  const path = archivePathOf(dataDir, state.plan.job_id);
  if (state.archive && (await intact(path, state.archive, verify))) return path;
  if (state.archive) host.append({ t: 'packed', n: 0, offset: 0, e: [] });
  await buildArchive(host, path, signal, stream);
  return path;
}

/** Streamed mode: the size to pad the archive up to, and who hears how far it is written. */
export type StreamHooks = {
  budget?: ArchiveBudget;
  onCommitted?: (offset: number) => void;
  codecOf?: (file: number) => Codec;
};

async function intact(path: string, a: { size: number; sha256: string }, verify: boolean): Promise<boolean> {
  try {
    if (statSync(path).size !== a.size) return false;
    return !verify || (await sha256OfFile(path)) === a.sha256;
  } catch {
    return false;
  }
}

async function buildArchive(host: ArchiveHost, path: string, signal: AbortSignal, stream: StreamHooks): Promise<void> {
  const { state, dataDir } = host;
  const files = state.plan.files;
  const rawTotal = state.plan.bytes;
  ensurePrivateDir(join(dataDir, ARCHIVES_DIR));
  host.compressing();
  const resume: PackState | null = state.pack && state.pack.entries.length > 0 ? state.pack : null;
  let rawAtStart = -1;
  const started = performance.now();
  let rawNow = 0;
  const pool = sharedDeflatePool();
  let size: number;
  try {
    size = await writeDeflatedArchive({
      path,
      files,
      resume,
      pool,
      signal,
      ...stream,
      waitIfPaused: () => host.waitIfPaused(signal),
      onCheckpoint: (s, added) => host.append({ t: 'packed', n: s.entries.length, offset: s.offset, e: added }),
      onProgress: (raw, archiveBytes) => {
        if (rawAtStart < 0) rawAtStart = raw;
        rawNow = raw;
        if (archiveBytes > MAX_ZIP_BYTES) throw tooLarge(archiveBytes);
        host.progress(raw, rawTotal, archiveBytes);
      },
    });
  } catch (err) {
    // No room for the archive: the folder and what is left to write (the archive resumes from its
    // last checkpoint once there is room).
    if (isNoSpace(err)) {
      const left = (state.budget ?? state.plan.zip_size) - (state.pack?.offset ?? 0);
      throw asDiskFull(err, dirname(path), left);
    }
    // A file that changed or vanished since planning fails the job naming it.
    if (!signal.aborted && !(err instanceof UploadError)) await host.checkFiles(files.map((_, i) => i));
    throw err;
  }
  recordDeflateRate(dataDir, rawNow - Math.max(0, rawAtStart), (performance.now() - started) / 1000);
  if (size > MAX_ZIP_BYTES) throw tooLarge(size);
  // A file modified while it was read went into the archive half old, half new.
  await host.checkFiles(files.map((_, i) => i));
  host.append({ t: 'compressed', size, sha256: await sha256OfFile(path) });
}

function tooLarge(bytes: number): UploadError {
  return new UploadError(
    'zip_too_large',
    `Even compressed, the ZIP would be over ${formatBytes(Math.min(bytes, MAX_ZIP_BYTES))}, past the service's limit of 1 GB. Upload it in files mode instead.`,
  );
}

/** What a job shows and does around its archive: status, progress and its ETA, the rates it learns. */
export type JobArchiveHost = Omit<ArchiveHost, 'progress' | 'compressing'> & {
  tracker: ProgressTracker;
  /** The link rate the ETA uses (measured, capped by the bandwidth limit). */
  linkRate(): number;
  emitStatus(status: 'compressing'): void;
  /** Totals now count the archive: the tracker starts from the journal again. */
  resetProgress(): void;
  /** The compression advanced (a file was compressed); the host reports it when due. */
  progressed(): void;
  notice(message: string, params?: NoticeParams): void;
};

/** Slices deflated to estimate the archive's size. */
const SAMPLE_SLICES = 6;
/** A margin above this (a sample of a few unlike slices, or of one big file): the archive is finished first. */
const MAX_BUDGET_MARGIN = 0.08;

/**
 * A job's archive across its runs. Compressing starts before the exam is created; unless the
 * study is deflated by then, the exam is declared with an estimated size (a `budget`), created,
 * and the archive is sent while it is still being written, padded up to that size at its end.
 * A run killed mid-way continues the archive from its last checkpoint; a complete archive is
 * verified once per process and never deflated again.
 */
export class JobArchive {
  /** The complete archive, once written (or found intact). */
  path: string | null = null;
  private verified: boolean;
  private writer: { signal: AbortSignal; done: Promise<void> } | null = null;
  private committedBytes = 0;
  /** The sample was too uncertain for a budget: this process writes the archive first. */
  private refused = false;
  private ended: Error | null | 'done' = null;
  private waiters: { offset: number; resolve: () => void; reject: (e: Error) => void }[] = [];

  constructor(
    private readonly host: JobArchiveHost,
    resumed: boolean,
  ) {
    this.verified = !resumed;
  }

  /** Builds, continues or checks the archive before the exam is created with its exact size. */
  async prepare(signal: AbortSignal): Promise<void> {
    await this.write(signal);
    this.sending();
  }

  /**
   * Compressed zip mode, before the exam is created: declares the exam's size with a budget and
   * starts the writer (the archive is then sent while written), or, when the study is already
   * deflated or its sample too uncertain, writes the archive first for its exact size.
   */
  async beforeCreate(signal: AbortSignal): Promise<void> {
    const h = this.host;
    if (h.state.budget === null && this.streamable()) {
      h.emitStatus('compressing');
      await h.waitIfPaused(signal);
      signal.throwIfAborted();
      if ((await this.declareBudget()) === null) this.refused = true;
    }
    const writing = this.write(signal);
    signal.throwIfAborted();
    if (h.state.budget === null) {
      await writing;
      this.sending();
    }
    // The budget is always the size the exam is declared with: an archive finished since it was
    // journaled (a create lost and made again) declares its own size.
    const { archive, budget } = h.state;
    if (archive && budget !== null && archive.size !== budget) h.append({ t: 'budget', size: archive.size });
  }

  /** True while the archive is not complete: it is sent as it is written (streamed mode). */
  get streaming(): boolean {
    return this.host.state.budget !== null && this.host.state.archive === null;
  }

  /**
   * Streamed mode: runs `send` (the PUT of the archive, read as it is written) beside the writer.
   * A writer that fails stops the send; an archive that overshot its budget throws ArchiveOverBudget.
   * `onWritten` hears when the archive is complete (the send may still be going).
   */
  async sendWhileWriting(
    signal: AbortSignal,
    send: (file: GrowingFile, s: AbortSignal) => Promise<void>,
    onWritten?: () => void,
  ): Promise<void> {
    const controller = new AbortController();
    const stop = (): void => controller.abort(signal.reason);
    if (signal.aborted) stop();
    signal.addEventListener('abort', stop, { once: true });
    const writing = this.write(signal).then(
      () => {
        if (this.overBudget()) controller.abort(new ArchiveOverBudget());
        else onWritten?.();
        return null;
      },
      (err: unknown) => {
        controller.abort(err);
        return err;
      },
    );
    try {
      await send(this.growing(), controller.signal);
    } catch (err) {
      const writerErr = controller.signal.aborted ? await writing : null;
      if (writerErr) throw writerErr;
      if (this.overBudget()) throw new ArchiveOverBudget();
      throw err;
    } finally {
      signal.removeEventListener('abort', stop);
    }
    const writerErr = await writing;
    if (writerErr) throw writerErr;
    if (this.overBudget()) throw new ArchiveOverBudget();
  }

  /**
   * Whether this archive can be sent while written: already declared with a budget, or not yet
   * complete, with enough slices for a sample, and not refused in this process.
   */
  private streamable(): boolean {
    const { state } = this.host;
    if (state.budget !== null) return true;
    return !this.refused && state.archive === null && state.plan.files.length >= SAMPLE_SLICES;
  }

  /** The archive came out larger than the size its exam was declared with. */
  overBudget(): boolean {
    const { archive, budget } = this.host.state;
    return archive !== null && budget !== null && archive.size !== budget;
  }

  /**
   * The size to declare for a streamed archive, journaled (null: finish the archive first). The
   * entries already checkpointed count as written; the rest is estimated from slices spread over
   * it, deflated with the writer's codecs (the plan's strong share), plus the margin.
   */
  private async declareBudget(): Promise<number | null> {
    const h = this.host;
    const files = h.state.plan.files;
    const done = h.state.pack?.entries.length ?? 0;
    if (done >= files.length) return null;
    const rest = files.slice(done);
    const strong = h.state.plan.sample?.strong;
    // The plan's sample covers the whole study: reused while nothing is written yet.
    let sample = done === 0 ? h.state.plan.sample : undefined;
    if (!sample) {
      const s = await sampleStudy(rest, strong !== undefined);
      sample = s ? atShare(s, strong ?? 0) : undefined;
    }
    if (!sample) return null;
    let written = 0;
    for (const [, deflated] of h.state.pack?.entries ?? []) written += deflated;
    let raw = 0;
    let tasks = 0;
    for (let i = done; i < files.length; i++) {
      const f = files[i] as (typeof files)[number];
      raw += f.size;
      tasks += tasksOf(f.path, f.size, streamCodec(strong, i, f.size)).length;
    }
    const margin = BUDGET_MARGIN + 2 * sample.spread;
    // Too uncertain (a few unlike slices, one big file): padding would cost more than it saves.
    if (margin > MAX_BUDGET_MARGIN) return null;
    // Each task's end (a sync flush, a final block) adds a few bytes the sample (one deflate per slice) does not show.
    const size = archiveOverhead(files) + written + Math.ceil(raw * sample.ratio * (1 + margin)) + 8 * tasks;
    if (size > MAX_ZIP_BYTES) return null;
    h.append({ t: 'budget', size });
    return size;
  }

  /** The writer of this run, started if it is not running (a new run starts a new one). */
  private write(signal: AbortSignal): Promise<void> {
    if (this.writer?.signal === signal) return this.writer.done;
    const h = this.host;
    const budget: ArchiveBudget = { target: h.state.budget, sealed: false };
    // Sent while written: the ratio counts (the plan's codecs); finished first: the rate does (zlib level 1).
    const plan = h.state.plan;
    const codecOf =
      h.state.budget !== null
        ? (i: number): Codec => streamCodec(plan.sample?.strong, i, plan.files[i]?.size ?? 0)
        : (): Codec => FAST_CODEC;
    this.committedBytes = 0;
    this.ended = null;
    const done = this.build(signal, budget, codecOf).then(
      () => this.end('done'),
      (err: unknown) => {
        const e = err instanceof Error ? err : new Error(String(err));
        this.end(e);
        throw e;
      },
    );
    done.catch(() => undefined); // awaited by whoever needs the archive
    this.writer = { signal, done };
    return done;
  }

  private async build(signal: AbortSignal, budget: ArchiveBudget, codecOf: (file: number) => Codec): Promise<void> {
    const h = this.host;
    const started = performance.now();
    let firstRaw = -1;
    const link = h.linkRate();
    const kept = h.state.pack?.entries.length ?? 0;
    if (!h.state.archive && kept > 0) {
      const facts = { compressed: kept, total: h.state.plan.files.length };
      h.notice(noticeWords('resumed', facts, 'en') ?? '', facts);
    }
    this.path = null;
    const path = await ensureArchive(
      {
        ...h,
        compressing: () => {
          if (!h.state.exam) h.emitStatus('compressing');
        },
        progress: (raw, total, archiveBytes) => {
          if (firstRaw < 0) firstRaw = raw;
          const ratio = archiveBytes > 0 && raw > 0 ? raw / archiveBytes : null;
          if (h.state.exam) {
            // Sent while written: progress is the archive on the wire (its time left from the send's
            // own rate); how far compressing got rides along.
            h.tracker.setCompression({ state: 'sending', studyBytes: total, studyBytesDone: raw, ratio }, null, link);
            h.progressed();
            return;
          }
          const seconds = (performance.now() - started) / 1000;
          const packRate = seconds > 0.5 && raw > firstRaw ? (raw - firstRaw) / seconds : null;
          const eta =
            packRate && ratio ? Math.ceil((total - raw) / packRate + total / ratio / Math.max(1, link)) : null;
          h.tracker.setCompression({ state: 'compressing', studyBytes: total, studyBytesDone: raw, ratio }, eta);
          h.progressed();
        },
      },
      signal,
      !this.verified,
      { budget, codecOf, onCommitted: (offset) => this.commit(offset) },
    );
    this.verified = true;
    this.commit(h.state.archive?.size ?? 0);
    this.path = path;
    // Sent while written: the rest of the send's progress is the archive on the wire.
    if (h.state.exam && h.state.archive) {
      this.showCompressed();
      h.progressed();
    }
  }

  /** After the archive is complete and before its exam is created: totals count the archive. */
  private sending(): void {
    this.host.resetProgress();
    this.showCompressed();
  }

  /** Compressing is done: what goes on the wire is the archive, this much smaller than the study. */
  private showCompressed(): void {
    const h = this.host;
    const plan = h.state.plan;
    const size = h.state.archive?.size ?? plan.zip_size;
    h.tracker.setCompression(
      { state: 'sending', studyBytes: plan.bytes, studyBytesDone: plan.bytes, ratio: plan.bytes / size },
      null,
      h.linkRate(),
    );
  }

  private growing(): GrowingFile {
    return {
      path: archivePathOf(this.host.dataDir, this.host.state.plan.job_id),
      committed: () => this.committedBytes,
      waitFor: (offset) => {
        if (this.committedBytes >= offset) return Promise.resolve();
        if (this.ended !== null) return Promise.reject(this.endedShort());
        return new Promise<void>((resolve, reject) => this.waiters.push({ offset, resolve, reject }));
      },
    };
  }

  private commit(offset: number): void {
    this.committedBytes = Math.max(this.committedBytes, offset);
    if (this.waiters.length === 0) return;
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (w.offset <= this.committedBytes) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }

  private end(how: Error | 'done'): void {
    this.ended = how;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) {
      if (w.offset <= this.committedBytes) w.resolve();
      else w.reject(this.endedShort());
    }
  }

  /** Why a wait past the end of an ended writer fails: its own error, or the archive ended short. */
  private endedShort(): Error {
    return this.ended instanceof Error ? this.ended : new Error('the archive ended short of its size');
  }
}

/** The streamed archive came out larger than the size its exam was declared with. */
export class ArchiveOverBudget extends Error {
  constructor() {
    super('the compressed archive came out larger than estimated');
    this.name = 'ArchiveOverBudget';
  }
}
