// Classifying many files on both cores: a small pool of worker threads, each reading header
// prefixes synchronously. The pool outlives one scan (the watcher scans again and again) but
// never keeps the process alive: idle workers are unreferenced and stopped after a while.
//
// Workers start from scan-worker-boot.mjs (which registers tsx, then loads scan-worker.ts) when
// the core runs from TypeScript sources (tsx, vitest); from the bundle the core itself runs from
// otherwise: scan-worker.mjs beside the command's chunks (main/.build/cli), scan-worker.js beside
// the desktop app's entry. If a worker cannot start or dies, its files are read in the calling
// thread instead, so a scan never depends on workers.
import { Worker } from 'node:worker_threads';
import { probeFileSync } from './probe';
import type { FileProbe, ScanOptions } from '../header/dicom-types';

const WORKER_COUNT = 2;
const IDLE_STOP_MS = 15_000;
/** Below this many files, starting workers costs more than it saves. */
export const MIN_FILES_FOR_WORKERS = 64;

type Pending = { resolve: (probes: FileProbe[]) => void; reject: (e: Error) => void };
type Slot = {
  worker: Worker;
  pending: Map<number, Pending>;
  dead: boolean;
  /** Loaded and listening (its first message). */
  isReady: boolean;
  /** Settles true when the worker is ready, false if it dies first. */
  ready: Promise<boolean>;
};

let slots: Slot[] = [];
let workersUnavailable = false;
let idleTimer: NodeJS.Timeout | undefined;
let nextId = 1;

function workerUrl(): URL {
  const here = import.meta.url;
  return new URL(
    here.endsWith('.ts') ? './scan-worker-boot.mjs' : here.endsWith('.mjs') ? './scan-worker.mjs' : './scan-worker.js',
    here,
  );
}

function fail(slot: Slot, error: Error): void {
  if (slot.dead) return;
  slot.dead = true;
  // A worker that dies before it is ready cannot run here at all (e.g. no loader for it).
  if (!slot.isReady) workersUnavailable = true;
  for (const p of slot.pending.values()) p.reject(error);
  slot.pending.clear();
  slots = slots.filter((s) => s !== slot);
  void slot.worker.terminate();
}

function startSlot(): Slot {
  const worker = new Worker(workerUrl());
  let settleReady: (ok: boolean) => void = () => undefined;
  const ready = new Promise<boolean>((r) => (settleReady = r));
  const slot: Slot = { worker, pending: new Map(), dead: false, isReady: false, ready };
  worker.unref();
  worker.on('message', (msg: { ready?: true; id?: number; probes?: FileProbe[] }) => {
    if (msg.ready) {
      slot.isReady = true;
      settleReady(true);
      return;
    }
    const p = msg.id === undefined ? undefined : slot.pending.get(msg.id);
    if (!p || msg.id === undefined) return;
    slot.pending.delete(msg.id);
    if (slot.pending.size === 0) worker.unref();
    p.resolve(msg.probes ?? []);
  });
  worker.on('error', (e) => {
    settleReady(false);
    fail(slot, e);
  });
  worker.on('exit', (code) => {
    settleReady(false);
    fail(slot, new Error(`scan worker exited with code ${code}`));
  });
  return slot;
}

function request(slot: Slot, paths: string[]): Promise<FileProbe[]> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    slot.pending.set(id, { resolve, reject });
    // Referenced while it owes an answer, so a CLI awaiting it does not exit early.
    slot.worker.ref();
    slot.worker.postMessage({ id, paths });
  });
}

function acquireSlots(): Slot[] {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = undefined;
  if (workersUnavailable) return [];
  try {
    while (slots.length < WORKER_COUNT) slots.push(startSlot());
  } catch {
    workersUnavailable = true;
    return [];
  }
  return [...slots];
}

function scheduleIdleStop(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => void stopScanWorkers(), IDLE_STOP_MS);
  idleTimer.unref();
}

/** How the pool stands: live workers, and whether workers proved impossible here (then scans run in-thread). */
export function scanPoolStatus(): { workers: number; ready: number; unavailable: boolean } {
  const live = slots.filter((s) => !s.dead);
  return { workers: live.length, ready: live.filter((s) => s.isReady).length, unavailable: workersUnavailable };
}

/** Stops the pool's workers (they also stop by themselves when idle). */
export async function stopScanWorkers(): Promise<void> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = undefined;
  const current = slots;
  slots = [];
  for (const s of current) s.dead = true;
  await Promise.all(current.map((s) => s.worker.terminate()));
}

const yieldToEventLoop = (): Promise<void> => new Promise((r) => setImmediate(r));

async function probeInThread(paths: string[], signal: AbortSignal | undefined): Promise<FileProbe[]> {
  const out: FileProbe[] = [];
  for (let i = 0; i < paths.length; i++) {
    // Give timers, I/O and aborts a turn now and then: this may be the app's main process.
    if (i > 0 && i % 32 === 0) {
      await yieldToEventLoop();
      signal?.throwIfAborted();
    }
    out.push(probeFileSync(paths[i] as string));
  }
  return out;
}

/** Classifies every path, on the worker pool when it pays off; results in the order of `paths`. */
export async function probeFiles(paths: readonly string[], options: ScanOptions = {}): Promise<FileProbe[]> {
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  const total = paths.length;
  if (total === 0) return [];
  const results: FileProbe[] = new Array<FileProbe>(total);
  const pool = options.workers !== false && total >= MIN_FILES_FOR_WORKERS ? acquireSlots() : [];
  // Two lanes per worker: the next chunk waits in its queue while it reads the current one.
  const workerLanes = pool.flatMap((s) => [s, s]);
  const chunkSize = Math.max(16, Math.min(256, Math.ceil(total / (Math.max(1, workerLanes.length) * 6))));
  let next = 0;
  let done = 0;

  let allTaken: () => void = () => undefined;
  const taken = new Promise<false>((r) => (allTaken = () => r(false)));
  const take = (size: number): { start: number; chunk: string[] } => {
    const start = next;
    next = Math.min(total, start + size);
    if (next >= total) allTaken();
    return { start, chunk: paths.slice(start, next) };
  };
  const store = (start: number, probes: FileProbe[]): void => {
    for (let i = 0; i < probes.length; i++) results[start + i] = probes[i] as FileProbe;
    done += probes.length;
    onProgress?.({ done, total });
  };

  const workerLane = async (initial: Slot): Promise<void> => {
    // A worker still starting gets work once it is ready, unless the calling thread finished first.
    if (!(await Promise.race([initial.ready, taken]))) return;
    let slot: Slot | null = initial;
    while (next < total) {
      signal?.throwIfAborted();
      const { start, chunk } = take(chunkSize);
      let probes: FileProbe[] | undefined;
      if (slot && !slot.dead) {
        try {
          probes = await request(slot, chunk);
        } catch {
          slot = null;
        }
      }
      store(start, probes ?? (await probeInThread(chunk, signal)));
    }
  };

  // The calling thread reads until a worker is ready: this covers the workers' start-up (a cold
  // pool, a one-off CLI scan, where they may never be needed) and the case where none can start.
  const ownLane = async (): Promise<void> => {
    while (next < total && !pool.some((s) => s.isReady && !s.dead)) {
      signal?.throwIfAborted();
      const { start, chunk } = take(Math.min(chunkSize, 32));
      store(start, await probeInThread(chunk, signal));
      await yieldToEventLoop();
    }
  };

  try {
    await Promise.all([...workerLanes.map(workerLane), ownLane()]);
  } finally {
    if (pool.length > 0) scheduleIdleStop();
  }
  return results;
}
