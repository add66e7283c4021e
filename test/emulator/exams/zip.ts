import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import { getFileNameLowLevel, openPromise, type Entry, type ZipFile } from 'yauzl';
import type { App } from '../core/app';
import { ApiError, badRequest, limitExceeded } from '../core/http';
import type { StoredFile } from '../core/state';
import { fileObjectName, objectKey } from './exam-objects';
import { MAX_FILES } from './validation';

/** API-v1.md §8.2 and the zip-bomb rule of CHOICES.md, "process-zip". */
export const MAX_EXPANDED_BYTES = 5 * 1024 ** 3;
const MAX_ENTRY_BYTES = 1.6e12;
const BOMB_RATIO = 200;
const BOMB_MIN_EXPANDED = 100 * 1024 ** 2;

const archiveError = (message: string, code?: string) =>
  badRequest(message, [{ field: 'archive', message, ...(code ? { code } : {}) }]);

/** Why an entry path is unsafe to store, or null. */
function unsafePath(name: string): string | null {
  if (name.length === 0) return 'empty entry name';
  if (name.includes('\0')) return 'entry name contains NUL';
  if (name.includes('\\')) return 'entry name contains a backslash';
  if (name.startsWith('/')) return 'absolute entry path';
  if (/^[A-Za-z]:/.test(name)) return 'entry path with a drive letter';
  if (name.split('/').includes('..')) return 'entry path with a .. segment';
  return null;
}

type Planned = { entry: Entry; name: string };

const EXTRACT_CONCURRENCY = 8;

/** §8.2: process-zip gives up after this many seconds of unpacking. */
export const PROCESS_ZIP_TIMEOUT_SECONDS = 300;

/** Refuses an entry whose bytes do not match the CRC-32 its directory entry declares (yauzl does not check). */
class CrcMismatch extends Error {}

async function extractEntry(zip: ZipFile, entry: Entry, path: string): Promise<void> {
  try {
    const stream = await zip.openReadStreamPromise(entry);
    let crc = 0;
    const check = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        crc = crc32(chunk, crc);
        cb(null, chunk);
      },
      flush(cb) {
        cb(crc >>> 0 === entry.crc32 >>> 0 ? null : new CrcMismatch());
      },
    });
    await pipeline(stream, check, createWriteStream(path));
  } catch (err) {
    if (err instanceof CrcMismatch)
      throw archiveError('A ZIP entry does not match its CRC-32 (the archive is damaged)', 'crc_mismatch');
    const message = err instanceof Error ? err.message : String(err);
    if (/too many bytes/i.test(message))
      throw archiveError('A ZIP entry inflates beyond its declared size', 'zip_bomb');
    throw archiveError(`A ZIP entry could not be read: ${message}`);
  }
}

/** Reads the central directory and checks every rule before a single byte is inflated. */
async function plan(zip: ZipFile, archiveBytes: number): Promise<Planned[]> {
  const planned: Planned[] = [];
  let expanded = 0;
  for await (const entry of zip.eachEntry()) {
    const name = getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
    const problem = unsafePath(name);
    if (problem) throw archiveError(`Unsafe path in the ZIP: ${problem}`);
    if (name.endsWith('/')) continue;
    if (entry.isEncrypted()) throw archiveError('Encrypted ZIP entries are not supported');
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
      throw archiveError(`Unsupported compression method ${entry.compressionMethod}`);
    if (planned.length + 1 > MAX_FILES)
      throw limitExceeded(400, `The ZIP holds more than ${MAX_FILES} files`, { limit: MAX_FILES });
    if (entry.uncompressedSize > MAX_ENTRY_BYTES)
      throw limitExceeded(400, 'A file inside the ZIP exceeds 1.6 TB', { limit_bytes: MAX_ENTRY_BYTES });
    expanded += entry.uncompressedSize;
    if (expanded > MAX_EXPANDED_BYTES)
      throw limitExceeded(400, 'The ZIP expands to more than 5 GiB', { limit_bytes: MAX_EXPANDED_BYTES });
    planned.push({ entry, name });
  }
  if (expanded > BOMB_MIN_EXPANDED && expanded / Math.max(1, archiveBytes) > BOMB_RATIO) {
    throw archiveError(
      `The ZIP expands ${Math.round(expanded / Math.max(1, archiveBytes))}:1, beyond the ${BOMB_RATIO}:1 allowed`,
      'zip_bomb',
    );
  }
  return planned;
}

/**
 * Unpacks the staged archive of `examId` into one stored object per file entry, streaming from disk
 * (never the whole archive in memory). Any refusal leaves no object behind. Later duplicates win.
 */
export async function extractZip(app: App, examId: string, zipPath: string): Promise<StoredFile[]> {
  const timeoutSeconds = app.config.processZipTimeoutSeconds ?? PROCESS_ZIP_TIMEOUT_SECONDS;
  const deadline = Date.now() + timeoutSeconds * 1000;
  const archiveBytes = (await stat(zipPath)).size;
  let zip: ZipFile;
  try {
    zip = await openPromise(zipPath, { decodeStrings: false, validateEntrySizes: true, autoClose: false });
  } catch (err) {
    throw archiveError(
      `The uploaded archive is not a readable ZIP: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const written: string[] = [];
  try {
    let planned: Planned[];
    try {
      planned = await plan(zip, archiveBytes);
    } catch (err) {
      if (!(err instanceof ApiError))
        throw archiveError(`The ZIP's directory is corrupt: ${err instanceof Error ? err.message : String(err)}`);
      throw err;
    }
    await mkdir(app.store.objectPath(examId), { recursive: true });
    const files = new Map<string, StoredFile>();
    for (const { name, entry } of planned)
      files.set(name, { name, size: entry.uncompressedSize, object: objectKey(examId, fileObjectName(name)) });
    // Several entries at once: per-file open/close latency, not bandwidth, bounds archives of small slices.
    const byPath = new Map(
      planned.map((p) => [app.store.objectPath(objectKey(examId, fileObjectName(p.name))), p.entry]),
    );
    const queue = [...byPath.entries()];
    let nextIndex = 0;
    let failed = false;
    const worker = async (): Promise<void> => {
      while (!failed && nextIndex < queue.length) {
        if (Date.now() > deadline) {
          failed = true;
          throw new ApiError(
            504,
            'processing_timeout',
            `Unpacking the ZIP took longer than ${timeoutSeconds} s; nothing was stored. Try again, or upload the files one by one.`,
          );
        }
        const [path, entry] = queue[nextIndex++] as [string, Entry];
        written.push(path);
        try {
          await extractEntry(zip, entry, path);
        } catch (err) {
          failed = true;
          throw err;
        }
      }
    };
    // Every worker settles before a failure is reported, so the clean-up sees all files written.
    const results = await Promise.allSettled(Array.from({ length: EXTRACT_CONCURRENCY }, worker));
    const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (rejected) throw rejected.reason;
    return [...files.values()];
  } catch (err) {
    await Promise.all(written.map((p) => rm(p, { force: true })));
    throw err;
  } finally {
    zip.close();
  }
}
