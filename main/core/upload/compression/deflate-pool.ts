// Raw deflate of file chunks on every core: a small pool of worker threads, each reading a range
// of a file and deflating it, so that compressing a study keeps up with any clinic uplink while
// the main thread only writes the archive.
//
// Two deflaters, both writing plain deflate that any ZIP reader inflates:
//   - node:zlib (native code), in chunks: a file is cut in 1 MiB chunks deflated on their own,
//     each ending on a byte boundary (Z_SYNC_FLUSH), the last with a final block (Z_FINISH): their
//     concatenation is one valid deflate stream (the way pigz splits work). Chunks do not share a
//     dictionary; with chunks far larger than deflate's window that costs next to nothing of
//     the ratio.
//   - libdeflate (Eric Biggers' C library built to WebAssembly, the `libdeflate` package), for a
//     whole file of up to WHOLE_FILE_BYTES in one task: it compresses whole buffers only, into a
//     finished stream. On CT slices its level 10 (near-optimal parsing) is smaller than zlib's level 6
//     but much slower (test/bench/deflate-levels.ts compares them): the strong codec of
//     an archive sent while it is written. Each of its outputs is inflated again with zlib and
//     compared with the file before it is used: a fault in it costs a zlib deflate of that file,
//     never a wrong byte. Where it cannot load, zlib level 6 does its tasks.
//
// The worker is a few lines of plain JavaScript started with `eval` (it needs only node:fs,
// node:zlib and, when asked, libdeflate's module by URL), so it runs the same from the TypeScript
// sources, the command's bundle and the desktop app's bundle. If workers cannot start, tasks are
// deflated with zlib on libuv's thread pool instead, which still spreads over the cores.
import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { constants, deflateRaw } from 'node:zlib';
import { Worker } from 'node:worker_threads';

/** Bytes per zlib task: big enough for deflate's window, small enough to spread one file over cores. */
export const CHUNK_BYTES = 1024 * 1024;
/** A file up to this size can be deflated by libdeflate in one task (a CT slice, a radiograph). */
export const WHOLE_FILE_BYTES = 4 * 1024 * 1024;

/**
 * How a file is deflated. `zlib`: node:zlib at `level`, in 1 MiB chunks. `whole`: libdeflate at
 * `level`, the file in one task (only for files up to WHOLE_FILE_BYTES; zlib level 6 in its place
 * when libdeflate is unavailable).
 */
export type Codec = { kind: 'zlib' | 'whole'; level: number };

/**
 * zlib level 1, the fastest, for an archive finished before its exam is created: then deflating
 * and sending add up, and the deflate rate counts as much as the ratio.
 */
export const FAST_CODEC: Codec = { kind: 'zlib', level: 1 };
/**
 * An archive sent while it is written (archive.ts) takes as long as the slower of deflating and
 * sending, and on a clinic uplink sending is far the slower, so the ratio counts. Its files are
 * deflated at one of two strengths (compression-choice.ts decides the share of each from this
 * computer's rates and the link's): the plain one, zlib level 6…
 */
export const STREAM_CODEC: Codec = { kind: 'zlib', level: 6 };
/** …and the strong one, libdeflate level 10 for a whole file: 5 % smaller on CT slices, at a third of the rate. */
export const STRONG_CODEC: Codec = { kind: 'whole', level: 10 };

export type ChunkTask = { path: string; offset: number; length: number; last: boolean };
/**
 * The chunk as read (for the entry's CRC-32) and deflated, the worker's milliseconds on it, and
 * whether libdeflate deflated it (false: zlib, asked for or in its place).
 */
export type ChunkResult = { raw: Buffer; deflated: Buffer; ms: number; whole: boolean };

/** The tasks one file is deflated in with `codec`: one task for a whole-file codec, else 1 MiB chunks. */
export function tasksOf(path: string, size: number, codec: Codec): ChunkTask[] {
  if (size === 0 || codecFor(size, codec).kind === 'whole') return [{ path, offset: 0, length: size, last: true }];
  const tasks: ChunkTask[] = [];
  for (let off = 0; off < size; off += CHUNK_BYTES)
    tasks.push({ path, offset: off, length: Math.min(CHUNK_BYTES, size - off), last: off + CHUNK_BYTES >= size });
  return tasks;
}

/** The codec a file of `size` bytes really gets from `codec` (a whole-file codec only takes files up to WHOLE_FILE_BYTES). */
export function codecFor(size: number, codec: Codec): Codec {
  return codec.kind === 'whole' && size > WHOLE_FILE_BYTES ? STREAM_CODEC : codec;
}

/**
 * The codec of file `index` in an archive sent while it is written: a `strong` share (0–1) of the
 * files, spread evenly (the same files on every run, so a resumed archive keeps the mix its size
 * was estimated for), gets the strong codec when it is small enough; the rest zlib level 6.
 */
export function streamCodec(strong: number | undefined, index: number, size: number): Codec {
  if (strong === undefined) return STREAM_CODEC;
  const isStrong = Math.floor((index + 1) * strong) > Math.floor(index * strong);
  return isStrong ? codecFor(size, STRONG_CODEC) : STREAM_CODEC;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { openSync, readSync, closeSync } = require('node:fs');
const { deflateRawSync, inflateRawSync, constants } = require('node:zlib');
let ld = null;
// WebAssembly starts in V8's baseline tier, at half speed: a few deflates of made-up slice-like
// data at load get the hot functions optimised, so that the first real task (the sample, whose
// rate sets the strong share) runs at about the speed of the ones after it.
function warm(m) {
  const b = new Uint8Array(65536);
  let x = 1;
  for (let i = 0; i < b.length; i++) { x = (x * 1103515245 + 12345) >>> 0; b[i] = (i & 1) ? (i >> 12) & 0x0f : ((i >> 3) & 0x7f) ^ (x >>> 29); }
  for (let i = 0; i < 2; i++) m.deflate(b, 10);
}
const loading = workerData && workerData.libdeflate
  ? import(workerData.libdeflate).then((m) => { warm(m); ld = m; }, () => undefined)
  : Promise.resolve();
loading.then(() => parentPort.postMessage({ ready: true, libdeflate: ld !== null }));
function zlib(raw, level, last) {
  const d = deflateRawSync(raw, { level, finishFlush: last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH });
  const out = new Uint8Array(d.length);
  out.set(d);
  return out;
}
function whole(raw, level) {
  if (ld) {
    try {
      const out = ld.deflate(raw, level);
      if (inflateRawSync(out).equals(raw)) return [out, true];
    } catch {}
  }
  return [zlib(raw, 6, true), false];
}
parentPort.on('message', async (m) => {
  await loading;
  try {
    const raw = Buffer.allocUnsafeSlow(m.length);
    const fd = openSync(m.path, 'r');
    try {
      let got = 0;
      while (got < m.length) {
        const n = readSync(fd, raw, got, m.length - got, m.offset + got);
        if (n === 0) throw Object.assign(new Error('file shorter than planned'), { code: 'ESHORT' });
        got += n;
      }
    } finally {
      closeSync(fd);
    }
    const t0 = performance.now();
    const [out, lib] = m.kind === 'whole' && m.offset === 0 && m.last ? whole(raw, m.level) : [zlib(raw, m.kind === 'whole' ? 6 : m.level, m.last), false];
    const ms = performance.now() - t0;
    parentPort.postMessage({ id: m.id, raw: raw.buffer, deflated: out.buffer, ms, whole: lib }, [raw.buffer, out.buffer]);
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: String(e && e.message || e), code: e && e.code });
  }
});
`;

/**
 * Where the workers import libdeflate from: the package when the core runs from its TypeScript
 * sources, libdeflate.mjs beside the bundle otherwise (main/esbuild.config.mjs builds it there).
 */
function libdeflateUrl(): string | null {
  try {
    const here = import.meta.url;
    if (here.endsWith('.ts')) return pathToFileURL(createRequire(here).resolve('libdeflate')).href;
    return new URL('./libdeflate.mjs', here).href;
  } catch {
    return null;
  }
}

/** Workers a compression runs: one per core, at most four. */
export function deflateWorkerCount(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

type Pending = { resolve: (r: ChunkResult) => void; reject: (e: Error) => void };
type Reply = {
  id?: number;
  ready?: true;
  libdeflate?: boolean;
  raw?: ArrayBuffer;
  deflated?: ArrayBuffer;
  ms?: number;
  whole?: boolean;
  error?: string;
  code?: string;
};

/** Why a chunk could not be read: the file changed or vanished since planning. */
export class ChunkReadError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'ChunkReadError';
  }
}

type Slot = { worker: Worker; pending: number };

/**
 * A pool of deflate workers; `close()` stops them. Each task goes to the worker with the fewest
 * in flight. A worker with nothing to do does not keep the process alive.
 */
export class DeflatePool {
  private readonly slots: Slot[] = [];
  private readonly pending = new Map<number, Pending & { slot: Slot }>();
  private readonly readies: Promise<boolean>[] = [];
  private nextId = 1;
  private broken = false;
  /** Called whenever the pool has no task in flight (the shared pool's idle timer). */
  onIdle: (() => void) | null = null;

  /** `libdeflate`: the workers load it for whole-file tasks (a pool for zlib alone starts faster without). */
  constructor(
    readonly size = deflateWorkerCount(),
    libdeflate = true,
  ) {
    const url = libdeflate ? libdeflateUrl() : null;
    try {
      for (let i = 0; i < size; i++) this.slots.push(this.start(url));
    } catch {
      this.broken = true;
    }
  }

  /** Resolves once every worker has started: true when each deflates whole files with libdeflate. */
  async wholeFiles(): Promise<boolean> {
    if (this.broken || this.readies.length === 0) return false;
    return (await Promise.all(this.readies)).every(Boolean) && !this.broken;
  }

  /** True while it can take tasks (no worker died). */
  get usable(): boolean {
    return !this.broken;
  }

  /** Tasks in flight. */
  get busy(): boolean {
    return this.pending.size > 0;
  }

  private start(libdeflate: string | null): Slot {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { libdeflate } });
    const slot: Slot = { worker, pending: 0 };
    let settle: (ok: boolean) => void = () => undefined;
    this.readies.push(new Promise<boolean>((r) => (settle = r)));
    worker.on('message', (m: Reply) => {
      if (m.ready) {
        settle(m.libdeflate === true);
        return;
      }
      const p = m.id === undefined ? undefined : this.pending.get(m.id);
      if (!p || m.id === undefined) return;
      this.settled(m.id, p.slot);
      if (m.error !== undefined || !m.raw || !m.deflated)
        p.reject(new ChunkReadError(m.error ?? 'deflate failed', m.code));
      else
        p.resolve({
          raw: Buffer.from(m.raw),
          deflated: Buffer.from(m.deflated),
          ms: m.ms ?? 0,
          whole: m.whole === true,
        });
    });
    const die = (err: Error): void => {
      settle(false);
      this.broken = true;
      for (const [id, p] of this.pending) {
        this.settled(id, p.slot);
        p.reject(err);
      }
    };
    worker.on('error', die);
    worker.on('exit', (code) => {
      if (code !== 0) die(new Error(`deflate worker exited with code ${code}`));
    });
    worker.unref(); // after the listeners: adding one refs the worker again
    return slot;
  }

  private settled(id: number, slot: Slot): void {
    this.pending.delete(id);
    slot.pending--;
    if (slot.pending === 0) slot.worker.unref();
    if (this.pending.size === 0) this.onIdle?.();
  }

  /** Reads and deflates one task on a worker (with zlib on libuv's pool when workers are unavailable). */
  run(task: ChunkTask, codec: Codec = FAST_CODEC): Promise<ChunkResult> {
    let slot: Slot | undefined;
    if (!this.broken) for (const s of this.slots) if (!slot || s.pending < slot.pending) slot = s;
    if (!slot) return deflateHere(task, codec.kind === 'whole' ? STREAM_CODEC.level : codec.level);
    const target = slot;
    const id = this.nextId++;
    return new Promise<ChunkResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, slot: target });
      if (target.pending++ === 0) target.worker.ref();
      target.worker.postMessage({ id, kind: codec.kind, level: codec.level, ...task });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    this.slots.length = 0;
    this.broken = true;
  }
}

/** How long the shared pool's workers stay up with nothing to do… */
const SHARED_IDLE_MS = 60_000;
/** …and how long while held: a scanning session's studies come minutes apart. */
const HELD_IDLE_MS = 15 * 60_000;
let shared: DeflatePool | null = null;
let sharedTimer: NodeJS.Timeout | undefined;
let held = false;

/**
 * The process's deflate pool, with libdeflate: started by the first compression (or its sample)
 * and kept warm between them, so that neither waits for workers to start; stopped after a minute
 * with nothing to do (15 minutes while held: `holdDeflatePool`). Never close it: it closes itself.
 */
export function sharedDeflatePool(): DeflatePool {
  clearTimeout(sharedTimer);
  if (shared?.usable) return shared;
  // A worker of the old pool died: its idle timer is cleared above, so its other workers stop here.
  if (shared) void shared.close();
  const pool = new DeflatePool();
  pool.onIdle = () => {
    clearTimeout(sharedTimer);
    sharedTimer = setTimeout(
      () => {
        if (pool.busy) return; // its next idle moment arms the timer again
        if (shared === pool) shared = null;
        void pool.close();
      },
      held ? HELD_IDLE_MS : SHARED_IDLE_MS,
    );
    sharedTimer.unref();
  };
  pool.onIdle();
  shared = pool;
  return pool;
}

/**
 * Keeps the shared pool's workers up and warm longer once started (`true`): in a process that
 * uploads studies as they come (the app, `watch`, `serve`, `receive`) while compression is not
 * turned off, the next study of a session then waits neither for workers to start nor for
 * libdeflate's code to be optimised, a delay the study would otherwise pay before its exam is
 * created. A process that never compresses starts none. Idle workers take no CPU and do not keep
 * the process alive, but each holds its memory (libdeflate's WebAssembly heap among it): hence a
 * limited hold, not for ever.
 */
export function holdDeflatePool(hold: boolean): void {
  held = hold;
  if (shared && !shared.busy) shared.onIdle?.();
}

function deflateHere(task: ChunkTask, level: number): Promise<ChunkResult> {
  let raw: Buffer;
  try {
    raw = readRange(task.path, task.offset, task.length);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return Promise.reject(new ChunkReadError(e.message, e.code));
  }
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    deflateRaw(raw, { level, finishFlush: task.last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH }, (err, deflated) =>
      err ? reject(err) : resolve({ raw, deflated, ms: performance.now() - t0, whole: false }),
    );
  });
}

/** Exactly `length` bytes of a file from `offset` (a shorter file throws, code ESHORT). */
export function readRange(path: string, offset: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  const fd = openSync(path, 'r');
  try {
    let got = 0;
    while (got < length) {
      const n = readSync(fd, buf, got, length - got, offset + got);
      if (n === 0) throw Object.assign(new Error('file shorter than planned'), { code: 'ESHORT' });
      got += n;
    }
  } finally {
    closeSync(fd);
  }
  return buf;
}
