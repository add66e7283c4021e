// Zip mode: an uncompressed ZIP built on the fly from the planned files. With stored entries and
// known sizes yazl knows the archive's exact length before reading a byte, so the ZIP can be PUT
// with a Content-Length straight from disk, with no temporary copy.
import { PassThrough, type Readable } from 'node:stream';
import { type EndOptions, ZipFile } from 'yazl';
import { openFileRange } from './file-source';

export type ZipEntryFile = { name: string; path: string; size: number; mtimeMs: number };

const entryOptions = (f: ZipEntryFile): { compress: false; size: number; mtime: Date; mode: number } => ({
  compress: false,
  size: f.size,
  mtime: new Date(f.mtimeMs),
  mode: 0o100644,
});

// @types/yazl types the size callback as `() => void`; it receives the total size.
type EndWithSize = (options: EndOptions, cb: (size: number) => void) => void;

// yazl 3.3's size prediction assumes a ZIP64 end record once the central directory reaches 64 KiB
// (about 1000 entries) but only writes one past 4 GiB, so its prediction overshoots by 76 bytes
// and the PUT would wait forever for bytes that never come. Always writing the ZIP64 end record
// (which every unzip reads) makes prediction and output agree.
const END: EndOptions = { forceZip64Format: true, comment: '' };

/** The exact size in bytes of the ZIP `createZipStream` produces for these files. */
export function zipSizeOf(files: readonly ZipEntryFile[]): Promise<number> {
  const zip = new ZipFile();
  // The size is all we want: the entries' streams are never opened.
  for (const f of files) zip.addReadStreamLazy(f.name, entryOptions(f), () => undefined);
  return new Promise((resolve, reject) => {
    (zip.end.bind(zip) as EndWithSize)(END, (size) => {
      if (size < 0) reject(new Error('ZIP size cannot be predicted'));
      else resolve(size);
    });
  });
}

/** A fresh stream of the ZIP of these files; every transfer attempt builds a new one. */
export function createZipStream(files: readonly ZipEntryFile[]): Readable {
  const zip = new ZipFile();
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  let current: Readable | null = null;
  zip.on('error', (err: Error) => out.destroy(err));
  // A transfer that gives up destroys `out`: release the open file too.
  out.on('close', () => {
    current?.destroy();
    (zip.outputStream as PassThrough).destroy();
  });
  for (const f of files) {
    zip.addReadStreamLazy(f.name, entryOptions(f), (cb) => {
      const stream = openFileRange(f.path, f.size);
      current = stream;
      // yazl does not listen for read errors on lazily opened streams.
      stream.on('error', (err) => zip.emit('error', err));
      cb(null, stream);
    });
  }
  zip.end(END);
  zip.outputStream.on('error', (err: Error) => out.destroy(err));
  zip.outputStream.pipe(out);
  return out;
}
