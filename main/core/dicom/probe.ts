// Looking at one file on disk: open it, read a bounded prefix, growing it only while the header
// continues, and classify it. The synchronous variant runs inside the scan workers, where a
// blocking read of a few kilobytes is cheaper than a round trip through the event loop.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { ParseStep } from './header';
import { INITIAL_PREFIX_BYTES, parseDicomPrefix } from './header';
import { looksLikeMesh, meshFormatOfExtension } from './mesh';
import type { FileProbe, ProbeOutcome } from './types';

type Decide = (bytes: Uint8Array, fileSize: number) => ParseStep;

function decider(path: string): Decide {
  const mesh = meshFormatOfExtension(extname(path));
  const namedDicomdir = basename(path).toUpperCase() === 'DICOMDIR';
  return (bytes, fileSize) => {
    if (mesh) {
      return looksLikeMesh(mesh, bytes, fileSize) ? { kind: 'mesh', format: mesh } : { kind: 'skipped', reason: 'not_dicom' };
    }
    if (fileSize === 0) return { kind: 'skipped', reason: 'not_dicom' };
    return parseDicomPrefix(bytes, fileSize, { namedDicomdir });
  };
}

const unreadable = (path: string, size: number): FileProbe => ({ path, size, outcome: { kind: 'skipped', reason: 'unreadable' } });

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

function readFully(fd: number, buf: Buffer, from: number, to: number): number {
  let at = from;
  while (at < to) {
    const n = readSync(fd, buf, at, to - at, at);
    if (n === 0) break;
    at += n;
  }
  return at;
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
    const decide = decider(path);
    scratch ??= Buffer.allocUnsafeSlow(INITIAL_PREFIX_BYTES);
    let buf = scratch;
    // Mesh checks look through the whole first 64 KiB; a DICOMDIR is read whole anyway.
    const special = meshFormatOfExtension(extname(path)) !== null || basename(path).toUpperCase() === 'DICOMDIR';
    let target = Math.min(size, special ? INITIAL_PREFIX_BYTES : firstRead);
    let len = 0;
    for (;;) {
      len = readFully(fd, buf, len, target);
      // A file still being written may be shorter than fstat said: judge what is really there.
      const step = decide(buf.subarray(0, len), len < target ? len : size);
      if (step.kind !== 'need_more') {
        learnHeaderLength(step);
        return { path, size, outcome: step };
      }
      if (step.bytes <= len) return { path, size, outcome: { kind: 'skipped', reason: 'malformed' } };
      target = step.bytes;
      if (target > buf.length) {
        const bigger = Buffer.allocUnsafe(target);
        buf.copy(bigger, 0, 0, len);
        buf = bigger;
      }
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
    const decide = decider(path);
    let target = Math.min(size, INITIAL_PREFIX_BYTES);
    let buf = Buffer.allocUnsafe(target);
    let len = 0;
    for (;;) {
      while (len < target) {
        const { bytesRead } = await handle.read(buf, len, target - len, len);
        if (bytesRead === 0) break;
        len += bytesRead;
      }
      const step = decide(buf.subarray(0, len), len < target ? len : size);
      if (step.kind !== 'need_more') return { path, size, outcome: step };
      if (step.bytes <= len) return { path, size, outcome: { kind: 'skipped', reason: 'malformed' } };
      target = step.bytes;
      const bigger = Buffer.allocUnsafe(target);
      buf.copy(bigger, 0, 0, len);
      buf = bigger;
    }
  } catch {
    return unreadable(path, size);
  } finally {
    await handle.close();
  }
}
