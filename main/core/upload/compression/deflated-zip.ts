// The compressed ZIP of a study, written to a private file: either finished before the exam is
// created (declared at its exact size), or sent while it is written and padded up to the size the
// exam was declared with (`ArchiveBudget`; API v1 fixes the size at creation). Entries are
// deflated on worker threads (deflate-pool.ts) and written in order, each one final once its
// local header is written (`onCommitted`: a sender may read that far); after every few megabytes
// the file is flushed to disk and a checkpoint (entries done, their CRC-32 and deflated sizes, the
// file's length) is handed to the caller to journal, so a run killed mid-way continues from the
// last checkpoint instead of deflating the study again.
//
// The container is written here rather than with yazl: yazl deflates each entry itself, one entry
// at a time on the main thread's zlib stream, and cannot take data already deflated elsewhere or
// continue an archive after a crash. The format is the plain PKZIP one (APPNOTE 4.3): a local
// header, the deflated data, then the central directory and its end record. No ZIP64 is needed:
// the service takes archives up to 1 GB and every size and offset is checked to fit 32 bits.
import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, openSync, writeSync, createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { type ChunkResult, type ChunkTask, type Codec, type DeflatePool, FAST_CODEC, tasksOf } from './deflate-pool';
import { PRIVATE_FILE_MODE } from '../../private-fs';
import type { ZipEntryFile } from '../transfer/zip';

/** A finished entry: CRC-32 of the file and its deflated length. */
export type PackedEntry = [crc: number, deflatedSize: number];
/** How far an archive got: the first `entries.length` files are in it, and it is `offset` bytes long. */
export type PackState = { entries: PackedEntry[]; offset: number };

const LOCAL_HEADER = 30;
const CENTRAL_HEADER = 46;
const END_RECORD = 22;
const MAX_32 = 0xffffffff;
/** Flush and checkpoint at least this often (bytes of archive). */
const CHECKPOINT_BYTES = 8 * 1024 * 1024;

export type WriteArchiveOptions = {
  path: string;
  files: readonly ZipEntryFile[];
  /** Where an earlier run stopped (null: from the start). */
  resume: PackState | null;
  pool: DeflatePool;
  signal: AbortSignal;
  /** Resolves when new chunks may be started (pause holds it). */
  waitIfPaused: () => Promise<void>;
  /** The archive is on disk up to `state.offset`: journal it. */
  onCheckpoint: (state: PackState, added: PackedEntry[]) => void;
  /** Bytes of the study deflated so far and the archive's length so far. */
  onProgress: (rawDone: number, archiveBytes: number) => void;
  /** Tasks in flight at once (bounds memory: a few MiB per task). */
  window?: number;
  /**
   * How the file at this index is deflated in this run (default: zlib's fastest level); asked more
   * than once per file, so it must always answer the same.
   */
  codecOf?: (file: number) => Codec;
  /** Streamed mode: the length the archive must come out at (see `ArchiveBudget`). */
  budget?: ArchiveBudget;
  /** Every byte of the archive before `offset` is written for good (a sender may read that far). */
  onCommitted?: (offset: number) => void;
};

/**
 * The exact length a streamed archive must have: API v1 fixes `zip_size_bytes` when the exam is
 * created, before the study is deflated, so the exam is declared with an estimate a little above
 * the archive's likely size and the archive is padded up to it. The writer reads `target` once,
 * as it writes the last entry's data (then `sealed` is set and a later target is ignored). The
 * padding is lossless and any reader skips it: empty stored deflate blocks (5 bytes each, the same
 * marker a sync flush writes) before the last entry's final chunk, and the rest, up to 64 KiB, as
 * the archive's comment. An archive whose data came out past the target is written at its own
 * length (no padding); the caller sees the length differ from the target.
 */
export type ArchiveBudget = { target: number | null; sealed: boolean };

/** Bytes an archive of `files` has besides the entries' data: local and central headers, end record. */
export function archiveOverhead(files: readonly ZipEntryFile[]): number {
  let n = END_RECORD;
  for (const f of files) n += LOCAL_HEADER + CENTRAL_HEADER + 2 * Buffer.byteLength(f.name, 'utf8');
  return n;
}

const MAX_COMMENT = 0xffff;
/** An empty, non-final stored deflate block on a byte boundary: BFINAL 0, BTYPE 00, LEN 0, NLEN 0xffff. */
const EMPTY_STORED_BLOCK = Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff]);

/** Writes (or continues) the archive; resolves with its final length once it is complete and flushed. */
export async function writeDeflatedArchive(o: WriteArchiveOptions): Promise<number> {
  const fd = openSync(o.path, o.resume ? 'r+' : 'w', PRIVATE_FILE_MODE);
  try {
    let state: PackState = o.resume ? { entries: [...o.resume.entries], offset: o.resume.offset } : emptyPack();
    // A file shorter than the checkpoint says (lost in a power cut): start over.
    if (fstatSync(fd).size < state.offset) state = emptyPack();
    ftruncateSync(fd, state.offset);
    o.onCommitted?.(state.offset);
    await writeEntries(fd, state, o);
    if (o.budget) o.budget.sealed = true;
    const size = writeCentralDirectory(fd, state, o.files, o.budget?.target ?? null);
    fdatasyncSync(fd);
    o.onCommitted?.(size);
    return size;
  } finally {
    closeSync(fd);
  }
}

function emptyPack(): PackState {
  return { entries: [], offset: 0 };
}

type Chunked = ChunkTask & { file: number };

function* chunksFrom(o: WriteArchiveOptions, first: number): Generator<Chunked> {
  for (let i = first; i < o.files.length; i++) {
    const f = o.files[i] as ZipEntryFile;
    for (const t of tasksOf(f.path, f.size, o.codecOf?.(i) ?? FAST_CODEC)) yield { ...t, file: i };
  }
}

async function writeEntries(fd: number, state: PackState, o: WriteArchiveOptions): Promise<void> {
  const files = o.files;
  let rawDone = 0;
  for (let i = 0; i < state.entries.length; i++) rawDone += files[i]?.size ?? 0;
  o.onProgress(rawDone, state.offset);
  const tasks = chunksFrom(o, state.entries.length);
  const window = o.window ?? o.pool.size * 3;
  const inflight: Promise<ChunkResult>[] = [];
  let exhausted = false;
  const refill = async (): Promise<void> => {
    while (!exhausted && inflight.length < window) {
      await o.waitIfPaused();
      o.signal.throwIfAborted();
      const next = tasks.next();
      if (next.done) {
        exhausted = true;
        return;
      }
      const { file, ...task } = next.value;
      const p = o.pool.run(task, o.codecOf?.(file) ?? FAST_CODEC);
      p.catch(() => undefined); // awaited in order below
      inflight.push(p);
    }
  };
  let added: PackedEntry[] = [];
  let lastCheckpoint = state.offset;
  let entryStart = state.offset;
  let crc = 0;
  let deflated = 0;
  const fileChunks = chunksFrom(o, state.entries.length);
  await refill();
  for (let chunk = fileChunks.next(); !chunk.done; chunk = fileChunks.next()) {
    const c = chunk.value;
    const f = files[c.file] as ZipEntryFile;
    const head = localHeaderFor(f);
    if (c.offset === 0) {
      entryStart = state.offset;
      crc = 0;
      deflated = 0;
    }
    const result = await (inflight.shift() as Promise<ChunkResult>);
    o.signal.throwIfAborted();
    crc = crc32(result.raw, crc);
    if (c.last && c.file === files.length - 1 && o.budget) {
      const dataEnd = entryStart + head.length + deflated + result.deflated.length;
      deflated += writePadding(fd, entryStart + head.length + deflated, paddingBlocks(o.budget, dataEnd, files));
    }
    writeAll(fd, result.deflated, entryStart + head.length + deflated);
    deflated += result.deflated.length;
    rawDone += c.length;
    if (c.last) {
      if (f.size > MAX_32 || deflated > MAX_32 || entryStart > MAX_32)
        throw new Error('the study is too large for a ZIP without ZIP64');
      head.writeUInt32LE(crc >>> 0, 14);
      head.writeUInt32LE(deflated, 18);
      head.writeUInt32LE(f.size, 22);
      writeAll(fd, head, entryStart);
      const entry: PackedEntry = [crc >>> 0, deflated];
      state.entries.push(entry);
      added.push(entry);
      state.offset = entryStart + head.length + deflated;
      o.onCommitted?.(state.offset);
      if (state.offset - lastCheckpoint >= CHECKPOINT_BYTES) {
        fdatasyncSync(fd);
        o.onCheckpoint({ entries: state.entries, offset: state.offset }, added);
        added = [];
        lastCheckpoint = state.offset;
      }
    }
    o.onProgress(rawDone, entryStart + head.length + deflated);
    await refill();
  }
  if (added.length > 0) {
    fdatasyncSync(fd);
    o.onCheckpoint({ entries: state.entries, offset: state.offset }, added);
  }
}

function localHeaderFor(f: ZipEntryFile): Buffer {
  const name = Buffer.from(f.name, 'utf8');
  const h = Buffer.alloc(LOCAL_HEADER + name.length);
  const { time, date } = dosDateTime(f.mtimeMs);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
  h.writeUInt16LE(0x0800, 6); // UTF-8 names
  h.writeUInt16LE(8, 8); // deflate
  h.writeUInt16LE(time, 10);
  h.writeUInt16LE(date, 12);
  // crc (14), deflated size (18), size (22) are filled in once the entry is written
  h.writeUInt16LE(name.length, 26);
  h.writeUInt16LE(0, 28);
  name.copy(h, LOCAL_HEADER);
  return h;
}

/**
 * How many empty stored blocks go before the last chunk so that the archive, with a comment of at
 * most 64 KiB, comes out at the budget's target. Seals the budget.
 */
function paddingBlocks(budget: ArchiveBudget, dataEnd: number, files: readonly ZipEntryFile[]): number {
  budget.sealed = true;
  if (budget.target === null) return 0;
  const short = budget.target - (dataEnd + centralDirectorySize(files) + END_RECORD);
  return short > MAX_COMMENT ? Math.ceil((short - MAX_COMMENT) / EMPTY_STORED_BLOCK.length) : 0;
}

/** Writes `blocks` empty stored blocks at `position`; returns their length. */
function writePadding(fd: number, position: number, blocks: number): number {
  const total = blocks * EMPTY_STORED_BLOCK.length;
  const piece = Buffer.alloc(Math.min(total, 200_000 * EMPTY_STORED_BLOCK.length));
  for (let o = 0; o < piece.length; o += EMPTY_STORED_BLOCK.length) EMPTY_STORED_BLOCK.copy(piece, o);
  for (let done = 0; done < total; done += piece.length)
    writeAll(fd, piece.subarray(0, Math.min(piece.length, total - done)), position + done);
  return total;
}

function centralDirectorySize(files: readonly ZipEntryFile[]): number {
  let n = 0;
  for (const f of files) n += CENTRAL_HEADER + Buffer.byteLength(f.name, 'utf8');
  return n;
}

function writeCentralDirectory(
  fd: number,
  state: PackState,
  files: readonly ZipEntryFile[],
  target: number | null,
): number {
  const parts: Buffer[] = [];
  let offset = 0;
  for (let i = 0; i < files.length; i++) {
    const f = files[i] as ZipEntryFile;
    const [crc, deflated] = state.entries[i] as PackedEntry;
    const name = Buffer.from(f.name, 'utf8');
    const h = Buffer.alloc(CENTRAL_HEADER + name.length);
    const { time, date } = dosDateTime(f.mtimeMs);
    h.writeUInt32LE(0x02014b50, 0);
    h.writeUInt16LE(0x031e, 4); // made by: Unix, spec 3.0 (so the mode below is read)
    h.writeUInt16LE(20, 6);
    h.writeUInt16LE(0x0800, 8);
    h.writeUInt16LE(8, 10);
    h.writeUInt16LE(time, 12);
    h.writeUInt16LE(date, 14);
    h.writeUInt32LE(crc, 16);
    h.writeUInt32LE(deflated, 20);
    h.writeUInt32LE(f.size, 24);
    h.writeUInt16LE(name.length, 28);
    // extra (30), comment (32), disk (34), internal attributes (36): 0
    h.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    h.writeUInt32LE(offset, 42);
    name.copy(h, CENTRAL_HEADER);
    parts.push(h);
    offset += LOCAL_HEADER + name.length + deflated;
  }
  if (offset !== state.offset) throw new Error('archive entries do not add up to its length');
  const directory = Buffer.concat(parts);
  const end = Buffer.alloc(END_RECORD);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(state.offset, 16);
  // The rest of a budget's padding (a target the data overshot, or one that needs more than the
  // comment holds, is not met: the archive keeps its own length).
  const short = target === null ? 0 : target - (state.offset + directory.length + END_RECORD);
  const comment = short > 0 && short <= MAX_COMMENT ? short : 0;
  end.writeUInt16LE(comment, 20);
  const size = state.offset + directory.length + END_RECORD + comment;
  if (size > MAX_32 || files.length > 0xffff) throw new Error('the study is too large for a ZIP without ZIP64');
  writeAll(fd, directory, state.offset);
  writeAll(fd, end, state.offset + directory.length);
  if (comment > 0) writeAll(fd, Buffer.alloc(comment, 0x20), state.offset + directory.length + END_RECORD);
  ftruncateSync(fd, size);
  return size;
}

function writeAll(fd: number, buf: Buffer, position: number): void {
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off, position + off);
}

/** MS-DOS date and time of a modification time, in local time as unzip tools read it. */
function dosDateTime(ms: number): { time: number; date: number } {
  const d = new Date(ms);
  const year = Math.min(2107, Math.max(1980, d.getFullYear()));
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/** sha256 of a whole file (the archive's identity in the journal). */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
