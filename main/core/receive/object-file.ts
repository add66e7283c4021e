// Writing one received object (held in memory, at most SPILL_BYTES) into its study folder, whole,
// private (0600), in blocking calls: each asynchronous step would cost a round trip through the
// thread pool per object, which is what limits a 600-slice study.
//
// A new object is created under its final name (O_EXCL). Creating a temporary name and renaming
// it doubles the folder updates per object, and on ext4 that makes each object's `open` wait
// markedly longer (see test/bench/receive.ts). A file cut short by a crash
// must still never pass for a whole object, so the bytes go in two writes: everything after the
// first 132 bytes, then the 128-byte preamble and the "DICM" marker. Until the second write, the
// file is not a Part-10 file (its marker is zeros), and a scan skips it as not DICOM; a sender that
// never got its answer sends it again, and that resend replaces it.
//
// An object that is already there (a resend) is replaced atomically: written under a temporary
// name beside it, then renamed over it.
import { closeSync, openSync, renameSync, writeSync, writevSync } from 'node:fs';
import { PRIVATE_FILE_MODE } from '../private-fs';
import { uniqueName } from './part10';

/** The preamble and the "DICM" marker: written last. */
const MARKER_END = 132;

/** Writes `chunks` (a Part-10 file, its header first) as the file `path`, replacing any file there. */
export function writeObjectFile(path: string, chunks: readonly Buffer[]): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return replaceFile(path, chunks);
  }
  try {
    const [head, ...rest] = chunks;
    if (head && head.length >= MARKER_END) {
      writevAllSync(fd, [head.subarray(MARKER_END), ...rest], MARKER_END);
      writeAllSync(fd, head.subarray(0, MARKER_END), 0);
    } else writevAllSync(fd, chunks, 0);
  } finally {
    closeSync(fd);
  }
}

function replaceFile(path: string, chunks: readonly Buffer[]): void {
  const tmp = `${path}.${uniqueName()}.part`;
  const fd = openSync(tmp, 'wx', PRIVATE_FILE_MODE);
  try {
    writevAllSync(fd, chunks, 0);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

function writeAllSync(fd: number, bytes: Buffer, position: number): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
}

/** writevSync from `position` until every byte is written (a short write is possible). */
function writevAllSync(fd: number, chunks: readonly Buffer[], position: number): void {
  let rest = chunks.filter((c) => c.length > 0);
  let at = position;
  while (rest.length > 0) {
    const written = writevSync(fd, rest.slice(0, 1024), at);
    at += written;
    let skip = written;
    const next: Buffer[] = [];
    for (const c of rest) {
      if (skip >= c.length) skip -= c.length;
      else {
        next.push(skip > 0 ? c.subarray(skip) : c);
        skip = 0;
      }
    }
    rest = next;
  }
}
