// Looking at one file on disk: open it, read a bounded prefix, growing it only while the header
// continues, and classify it. The synchronous variant runs inside the scan workers, where a
// blocking read of a few kilobytes is cheaper than a round trip through the event loop.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { ParseStep } from '../header/header';
import { INITIAL_PREFIX_BYTES, parseDicomPrefix } from '../header/header';
import { looksLikeMesh, meshFormatOfExtension } from '../header/mesh';
import type { FileProbe, ProbeOutcome } from '../header/dicom-types';

type Decide = (bytes: Uint8Array, fileSize: number) => ParseStep;

function decider(path: string): Decide {
  const mesh = meshFormatOfExtension(extname(path));
  const namedDicomdir = basename(path).toUpperCase() === 'DICOMDIR';
  return (bytes, fileSize) => {
    if (mesh) {
      return looksLikeMesh(mesh, bytes, fileSize)
        ? { kind: 'mesh', format: mesh }
        : { kind: 'skipped', reason: 'not_dicom' };
    }
    if (fileSize === 0) return { kind: 'skipped', reason: 'not_dicom' };
    return parseDicomPrefix(bytes, fileSize, { namedDicomdir });
  };
}

const unreadable = (path: string, size: number): FileProbe => ({
  path,
  size,
  outcome: { kind: 'skipped', reason: 'unreadable' },
});

// One reusable buffer per thread for the first read; headers are copied out as strings.
let scratch: Buffer | undefined;

// Files of one series have headers of nearly the same length, so after a DICOM file the next
// first read is sized to that header plus a margin (whole pages) instead of the full 64 KiB.
// A longer header just costs one more read.
let firstRead = INITIAL_PREFIX_BYTES;
const PAGE = 4096;

function learnHeaderLength(outcome: ProbeOutcome): void {
  if (outcome.kind !== 'dicom') return;
  const wanted = Math.ceil((outcome.header.header_bytes * 1.25 + 2 * PAGE) / PAGE) * PAGE;
  firstRead = Math.min(INITIAL_PREFIX_BYTES, wanted);
}

/**
 * The read → judge → grow loop over one file's prefix, without the I/O, so the synchronous and the
 * asynchronous probe share it: the caller reads until `len` reaches `target` (or the file ends),
 * then asks `judge()` for the outcome or for a longer read.
 */
class PrefixLoop {
  len = 0;
  target: number;
  private readonly decide: Decide;

  constructor(
    path: string,
    private readonly size: number,
    public buf: Buffer,
    firstRead: number,
  ) {
    this.decide = decider(path);
    this.target = Math.min(size, firstRead);
  }

  judge(): ProbeOutcome | null {
    // A file still being written may be shorter than fstat said: judge what is really there.
    const step = this.decide(this.buf.subarray(0, this.len), this.len < this.target ? this.len : this.size);
    if (step.kind !== 'need_more') {
      learnHeaderLength(step);
      return step;
    }
    if (step.bytes <= this.len) return { kind: 'skipped', reason: 'malformed' };
    this.target = step.bytes;
    if (this.target > this.buf.length) {
      const bigger = Buffer.allocUnsafe(this.target);
      this.buf.copy(bigger, 0, 0, this.len);
      this.buf = bigger;
    }
    return null;
  }
}

/** How much to read first: mesh checks look through the whole first 64 KiB; a DICOMDIR is read whole anyway. */
function firstReadOf(path: string): number {
  const special = meshFormatOfExtension(extname(path)) !== null || basename(path).toUpperCase() === 'DICOMDIR';
  return special ? INITIAL_PREFIX_BYTES : firstRead;
}

/** Reads and classifies one file, synchronously; never throws. */
export function probeFileSync(path: string): FileProbe {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return unreadable(path, 0);
  }
  let size = 0;
  try {
    size = fstatSync(fd).size;
    scratch ??= Buffer.allocUnsafeSlow(INITIAL_PREFIX_BYTES);
    const loop = new PrefixLoop(path, size, scratch, firstReadOf(path));
    for (;;) {
      while (loop.len < loop.target) {
        const n = readSync(fd, loop.buf, loop.len, loop.target - loop.len, loop.len);
        if (n === 0) break;
        loop.len += n;
      }
      const outcome = loop.judge();
      if (outcome) return { path, size, outcome };
    }
  } catch {
    return unreadable(path, size);
  } finally {
    closeSync(fd);
  }
}

/** Reads and classifies one file without blocking the event loop; never throws. */
export async function probeFile(path: string): Promise<FileProbe> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return unreadable(path, 0);
  }
  let size = 0;
  try {
    size = (await handle.stat()).size;
    // Probes of several files interleave here, so each has its own buffer.
    const first = firstReadOf(path);
    const loop = new PrefixLoop(path, size, Buffer.allocUnsafe(Math.min(size, first)), first);
    for (;;) {
      while (loop.len < loop.target) {
        const { bytesRead } = await handle.read(loop.buf, loop.len, loop.target - loop.len, loop.len);
        if (bytesRead === 0) break;
        loop.len += bytesRead;
      }
      const outcome = loop.judge();
      if (outcome) return { path, size, outcome };
    }
  } catch {
    return unreadable(path, size);
  } finally {
    await handle.close();
  }
}
