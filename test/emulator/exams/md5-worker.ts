import { Transform, type TransformCallback } from 'node:stream';
import { Worker } from 'node:worker_threads';

/**
 * MD5 of uploads (the storage ETag) computed on a worker thread: MD5 runs at about half of loopback
 * upload speed, so hashing on the main thread would halve PUT throughput. Chunks are copied and
 * transferred; the main thread only counts bytes.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const open = new Map();
parentPort.on('message', (m) => {
  if (m.chunk) {
    let h = open.get(m.id);
    if (!h) { h = createHash('md5'); open.set(m.id, h); }
    h.update(new Uint8Array(m.chunk));
    return;
  }
  const h = open.get(m.id) ?? createHash('md5');
  open.delete(m.id);
  if (!m.discard) parentPort.postMessage({ id: m.id, digest: h.digest('hex') });
});`;

type Digested = { id: number; digest: string };

let worker: Worker | undefined;
let nextId = 1;
const waiting = new Map<number, (digest: string) => void>();

function getWorker(): Worker {
  if (!worker) {
    const w = new Worker(WORKER_SOURCE, { eval: true });
    w.unref();
    w.on('message', (m: Digested) => {
      waiting.get(m.id)?.(m.digest);
      waiting.delete(m.id);
    });
    w.on('error', (err) => {
      process.stderr.write(`emulator: hash worker failed: ${err.message}\n`);
      worker = undefined;
    });
    worker = w;
  }
  return worker;
}

/** A pass-through that counts bytes and has them hashed (MD5) off the main thread. */
export class Md5Meter extends Transform {
  bytes = 0;
  private readonly id = nextId++;
  private readonly w = getWorker();

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytes += chunk.length;
    const copy = new Uint8Array(chunk);
    this.w.postMessage({ id: this.id, chunk: copy.buffer }, [copy.buffer]);
    cb(null, chunk);
  }

  /** Hex MD5 of every byte that passed. */
  digest(): Promise<string> {
    return new Promise((resolve) => {
      waiting.set(this.id, resolve);
      this.w.postMessage({ id: this.id });
    });
  }

  /** Drops the partial hash of an abandoned upload. */
  discard(): void {
    this.w.postMessage({ id: this.id, discard: true });
  }
}
