// Raw deflate of file chunks on every core: a small pool of worker threads, each reading a range
// of a file and deflating it with node:zlib (native code), so that compressing a study keeps up
// with any clinic uplink while the main thread only writes the archive.
//
// Each chunk is deflated on its own and ends on a byte boundary (Z_SYNC_FLUSH), the last chunk of
// a file with a final block (Z_FINISH): their concatenation is one valid deflate stream (the way
// pigz splits work). Chunks do not share a dictionary; with 1 MiB chunks and deflate's 32 KiB
// window that costs well under 1 % of the ratio.
//
// The worker is a few lines of plain JavaScript started with `eval` (it needs only node:fs and
// node:zlib), so it runs the same from the TypeScript sources, the command's bundle and the desktop
// app's bundle with no extra entry point. If workers cannot start, chunks are deflated on libuv's
// thread pool instead (zlib's asynchronous calls), which still spreads over the cores.
import { closeSync, openSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { constants, deflateRaw } from 'node:zlib';
import { Worker } from 'node:worker_threads';

/** Bytes per deflate task: big enough for deflate's window, small enough to spread one file over cores. */
export const CHUNK_BYTES = 1024 * 1024;
/**
 * zlib level 1, the fastest, for an archive finished before its exam is created: then deflating
 * and sending add up, and the deflate rate counts as much as the ratio.
 */
export const DEFLATE_LEVEL = 1;
/**
 * zlib level 6 for an archive sent while it is written (archive.ts): the link, not deflating, sets
 * the pace, so the ratio counts. On the bench's phantom level 6 is 6 % smaller than level 1 at a
 * quarter of its rate, still twice what a 40 Mbit/s link takes from two cores
 * (main/core/upload/README.md).
 */
export const STREAM_DEFLATE_LEVEL = 6;

export type ChunkTask = { path: string; offset: number; length: number; last: boolean };
/** The chunk as read (for the entry's CRC-32) and deflated. */
export type ChunkResult = { raw: Buffer; deflated: Buffer };

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { openSync, readSync, closeSync } = require('node:fs');
const { deflateRawSync, constants } = require('node:zlib');
parentPort.on('message', (m) => {
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
    const d = deflateRawSync(raw, { level: m.level, finishFlush: m.last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH });
    const out = new Uint8Array(d.length);
    out.set(d);
    parentPort.postMessage({ id: m.id, raw: raw.buffer, deflated: out.buffer }, [raw.buffer, out.buffer]);
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: String(e && e.message || e), code: e && e.code });
  }
});
`;

/** Workers a compression runs: one per core, at most four. */
export function deflateWorkerCount(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

type Pending = { resolve: (r: ChunkResult) => void; reject: (e: Error) => void };
type Reply = { id: number; raw?: ArrayBuffer; deflated?: ArrayBuffer; error?: string; code?: string };

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

/** A pool of deflate workers for one compression; `close()` stops them. */
export class DeflatePool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private turn = 0;
  private broken = false;

  constructor(readonly size = deflateWorkerCount()) {
    try {
      for (let i = 0; i < size; i++) this.workers.push(this.start());
    } catch {
      this.broken = true;
    }
  }

  private start(): Worker {
    const w = new Worker(WORKER_SOURCE, { eval: true });
    w.on('message', (m: Reply) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error !== undefined || !m.raw || !m.deflated)
        p.reject(new ChunkReadError(m.error ?? 'deflate failed', m.code));
      else p.resolve({ raw: Buffer.from(m.raw), deflated: Buffer.from(m.deflated) });
    });
    const die = (err: Error): void => {
      this.broken = true;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    w.on('error', die);
    w.on('exit', (code) => {
      if (code !== 0) die(new Error(`deflate worker exited with code ${code}`));
    });
    return w;
  }

  /** Reads and deflates one chunk on a worker (or on libuv's pool when workers are unavailable). */
  run(task: ChunkTask, level = DEFLATE_LEVEL): Promise<ChunkResult> {
    const worker = this.broken ? undefined : this.workers[this.turn++ % this.workers.length];
    if (!worker) return deflateHere(task, level);
    const id = this.nextId++;
    return new Promise<ChunkResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, level, ...task });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers.length = 0;
  }
}

function deflateHere(task: ChunkTask, level: number): Promise<ChunkResult> {
  let raw: Buffer;
  try {
    raw = readRange(task.path, task.offset, task.length);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return Promise.reject(new ChunkReadError(e.message, e.code));
  }
  return new Promise((resolve, reject) => {
    deflateRaw(raw, { level, finishFlush: task.last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH }, (err, deflated) =>
      err ? reject(err) : resolve({ raw, deflated }),
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
