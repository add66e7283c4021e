// What the file and ZIP transfers need of their job: its state, the pause gate, the PUTs in
// flight (pause aborts them), the journal and the progress tracker, and a few of its steps.
import type { UploadEvent } from '../state/engine-types';
import type { Gate } from '../state/gate';
import type { JobState } from '../journal/journal-replay';
import type { Journal } from '../journal/journal';
import type { ProgressTracker } from '../state/progress';
import type { GrowingFile } from '../transfer/file-source';
import type { putWithRetry, TransferAgents } from '../transfer/transfer';

export type TransferContext = {
  state: JobState;
  /** Compressed zip mode: the archive to send (archive.ts); null: the ZIP is built on the fly. */
  archivePath: string | null;
  /** Streamed compression: the archive is still being written; the PUT reads it as it grows. */
  growing?: GrowingFile;
  concurrency: number;
  gate: Gate;
  /** Controllers of the PUTs in flight: pause() aborts them. */
  inflight: Set<AbortController>;
  journal: Journal;
  tracker: ProgressTracker;
  waitIfPaused(signal: AbortSignal): Promise<void>;
  checkFiles(indices: readonly number[]): Promise<void>;
  putOptions(
    agents: TransferAgents,
    signal: AbortSignal,
    index: number,
    name: string,
  ): Parameters<typeof putWithRetry>[2];
  transferFailure(err: unknown, files: number[]): Promise<unknown>;
  emit(e: UploadEvent): void;
};
