// Reading a planned file for one transfer attempt. Each attempt opens a new stream: a consumed
// stream would send an empty body on retry (a trap seen in other uploaders).
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';

/** Read size per chunk: large enough that per-chunk overhead vanishes, small enough to stay lean. */
export const READ_CHUNK_BYTES = 256 * 1024;

/** Exactly the first `size` bytes of the file, as planned (a file that grew is caught by re-stat). */
export function openFileRange(path: string, size: number): Readable {
  if (size === 0) return Readable.from([]);
  return createReadStream(path, { start: 0, end: size - 1, highWaterMark: READ_CHUNK_BYTES });
}
