// The compressing step of a compressed zip-mode job: before the exam is created, the study is
// deflated into `<data>/archives/<job id>.zip` (0600 in a 0700 folder), journaled as it goes
// (`packed` checkpoints, then `compressed` with the archive's size and sha256). A rerun after a
// crash continues from the last checkpoint, and a complete archive is reused after checking its
// size and sha256, never deflated again. The archive is deleted once the job ends.
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DeflatePool } from './deflate-pool';
import { type PackState, sha256OfFile, writeDeflatedArchive } from './deflated-zip';
import type { JobState } from './journal-replay';
import type { JournalRecord } from './journal';
import { recordDeflateRate } from './link-rate';
import { MAX_ZIP_BYTES } from './limits';
import { formatBytes } from './plan';
import type { ProgressTracker } from './progress';
import { UploadError } from './upload-errors';
import { ensurePrivateDir } from '../private-fs';

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
export async function ensureArchive(host: ArchiveHost, signal: AbortSignal, verify: boolean): Promise<string> {
  const { state, dataDir } = host;
  const path = archivePathOf(dataDir, state.plan.job_id);
  if (state.archive && (await intact(path, state.archive, verify))) return path;
  if (state.archive) host.append({ t: 'packed', n: 0, offset: 0, e: [] });
  await buildArchive(host, path, signal);
  return path;
}

async function intact(path: string, a: { size: number; sha256: string }, verify: boolean): Promise<boolean> {
  try {
    if (statSync(path).size !== a.size) return false;
    return !verify || (await sha256OfFile(path)) === a.sha256;
  } catch {
    return false;
  }
}

async function buildArchive(host: ArchiveHost, path: string, signal: AbortSignal): Promise<void> {
  const { state, dataDir } = host;
  const files = state.plan.files;
  const rawTotal = state.plan.bytes;
  ensurePrivateDir(join(dataDir, ARCHIVES_DIR));
  host.compressing();
  const resume: PackState | null = state.pack && state.pack.entries.length > 0 ? state.pack : null;
  let rawAtStart = -1;
  const started = performance.now();
  let rawNow = 0;
  const pool = new DeflatePool();
  let size: number;
  try {
    size = await writeDeflatedArchive({
      path,
      files,
      resume,
      pool,
      signal,
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
    // A file that changed or vanished since planning fails the job naming it.
    if (!signal.aborted && !(err instanceof UploadError)) await host.checkFiles(files.map((_, i) => i));
    throw err;
  } finally {
    await pool.close();
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
  notice(message: string): void;
};

/** A job's archive across its runs: built once, verified once per process after a resume. */
export class JobArchive {
  path: string | null = null;
  private verified: boolean;

  constructor(
    private readonly host: JobArchiveHost,
    resumed: boolean,
  ) {
    this.verified = !resumed;
  }

  /** Builds, continues or checks the archive; afterwards the totals count its bytes. */
  async prepare(signal: AbortSignal): Promise<void> {
    const h = this.host;
    const started = performance.now();
    let firstRaw = -1;
    const link = h.linkRate();
    const kept = h.state.pack?.entries.length ?? 0;
    if (!h.state.archive && kept > 0)
      h.notice(`Continuing the compression (${kept} of ${h.state.plan.files.length} files already compressed).`);
    this.path = await ensureArchive(
      {
        ...h,
        compressing: () => h.emitStatus('compressing'),
        progress: (raw, total, archiveBytes) => {
          if (firstRaw < 0) firstRaw = raw;
          const ratio = archiveBytes > 0 && raw > 0 ? raw / archiveBytes : null;
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
    );
    this.verified = true;
    h.resetProgress();
    const plan = h.state.plan;
    const size = h.state.archive?.size ?? plan.zip_size;
    h.tracker.setCompression(
      { state: 'sending', studyBytes: plan.bytes, studyBytesDone: plan.bytes, ratio: plan.bytes / size },
      null,
      link,
    );
  }
}
