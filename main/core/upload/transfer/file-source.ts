// Reading a planned file for one transfer attempt. Each attempt opens a new stream: a consumed
// stream would send an empty body on retry (a trap seen in other uploaders).
import { createReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { Readable } from 'node:stream';

/** Read size per chunk: large enough that per-chunk overhead vanishes, small enough to stay lean. */
export const READ_CHUNK_BYTES = 256 * 1024;

/** Exactly the first `size` bytes of the file, as planned (a file that grew is caught by re-stat). */
export function openFileRange(path: string, size: number): Readable {
  if (size === 0) return Readable.from([]);
  return createReadStream(path, { start: 0, end: size - 1, highWaterMark: READ_CHUNK_BYTES });
}

/** A file still being written: how far it is final, and a wait for more. */
export type GrowingFile = {
  path: string;
  /** Bytes from the start that are written for good. */
  committed(): number;
  /** Resolves once `committed() >= offset`; rejects when the writer stopped short of it. */
  waitFor(offset: number): Promise<void>;
};

/**
 * The first `size` bytes of a file its writer is still appending to (the compressed archive sent
 * while it is written): reads only what is committed, and waits for more; `held` says it is
 * waiting for the writer, not for the network (the PUT's stall timer does not count that time).
 */
export class GrowingFileReader extends Readable {
  held = false;
  private pos = 0;
  private handle: FileHandle | null = null;

  constructor(
    private readonly file: GrowingFile,
    private readonly size: number,
  ) {
    super({ highWaterMark: READ_CHUNK_BYTES });
  }

  override _read(): void {
    void this.pump();
  }

  private async pump(): Promise<void> {
    try {
      if (this.pos >= this.size) {
        this.push(null);
        return;
      }
      if (this.file.committed() <= this.pos) {
        this.held = true;
        try {
          await this.file.waitFor(this.pos + 1);
        } finally {
          this.held = false;
        }
        if (this.destroyed) return;
      }
      const n = Math.min(READ_CHUNK_BYTES, this.size - this.pos, this.file.committed() - this.pos);
      if (!this.handle) {
        const h = await open(this.file.path, 'r');
        if (this.destroyed) {
          await h.close();
          return;
        }
        this.handle = h;
      }
      const buf = Buffer.allocUnsafe(n);
      const { bytesRead } = await this.handle.read(buf, 0, n, this.pos);
      if (bytesRead === 0) throw new Error('the archive is shorter than its writer said');
      this.pos += bytesRead;
      this.push(bytesRead === n ? buf : buf.subarray(0, bytesRead));
    } catch (err) {
      this.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  }

  override _destroy(err: Error | null, cb: (error?: Error | null) => void): void {
    const h = this.handle;
    this.handle = null;
    if (!h) cb(err);
    else
      h.close().then(
        () => cb(err),
        () => cb(err),
      );
  }
}
