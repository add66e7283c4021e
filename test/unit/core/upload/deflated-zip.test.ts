import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { openPromise } from 'yauzl';
import type { ZipEntryFile } from '@main/core/upload/transfer/zip';
import {
  CHUNK_BYTES,
  DeflatePool,
  STREAM_CODEC,
  streamCodec,
  WHOLE_FILE_BYTES,
} from '@main/core/upload/compression/deflate-pool';
import { type ArchiveBudget, type PackState, writeDeflatedArchive } from '@main/core/upload/compression/deflated-zip';
import { phantomSlice } from '@support/data/phantom';

/** Every entry of a ZIP as yauzl reads it (sizes validated), with the CRC-32 it declares. */
async function readZip(path: string): Promise<Map<string, { data: Buffer; crc: number; method: number }>> {
  const zip = await openPromise(path, { validateEntrySizes: true, autoClose: false });
  const out = new Map<string, { data: Buffer; crc: number; method: number }>();
  try {
    for await (const e of zip.eachEntry()) {
      const data = await buffer(await zip.openReadStreamPromise(e));
      out.set(e.fileName, { data, crc: e.crc32, method: e.compressionMethod });
    }
  } finally {
    zip.close();
  }
  return out;
}

describe('the deflated archive', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-dzip-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const pool = new DeflatePool(2);
  afterAll(() => pool.close());

  const files: ZipEntryFile[] = [];
  const contents = new Map<string, Buffer>();
  const add = (name: string, data: Buffer): void => {
    const path = join(dir, name.replace(/\//g, '_'));
    writeFileSync(path, data);
    files.push({ name, path, size: data.length, mtimeMs: statSync(path).mtimeMs });
    contents.set(name, data);
  };
  // Slices, an empty file, a file of several chunks (not a multiple of the chunk), noise, UTF-8 names.
  for (let z = 0; z < 12; z++) add(`SER1/IMG${z}`, phantomSlice(128, z, 'cbct'));
  add('empty.dcm', Buffer.alloc(0));
  add(
    'big/multi-chunk.dcm',
    Buffer.concat([1, 2, 3, 4, 5].map((z) => phantomSlice(512, z, 'cbct')).concat([randomBytes(4321)])),
  );
  add('noise.dcm', randomBytes(300_000));
  add('Muñoz/ñ.dcm', phantomSlice(64, 0, 'cbct'));

  const options = (path: string, resume: PackState | null) => {
    const checkpoints: PackState[] = [];
    return {
      checkpoints,
      o: {
        path,
        files,
        resume,
        pool,
        signal: new AbortController().signal,
        waitIfPaused: () => Promise.resolve(),
        onCheckpoint: (s: PackState) => checkpoints.push({ entries: [...s.entries], offset: s.offset }),
        onProgress: () => undefined,
      },
    };
  };

  it('is a ZIP any reader unpacks to the original bytes, with the right CRC-32 and deflate', async () => {
    expect((contents.get('big/multi-chunk.dcm')?.length ?? 0) > 2 * CHUNK_BYTES).toBe(true);
    const path = join(dir, 'a.zip');
    const { o } = options(path, null);
    const size = await writeDeflatedArchive(o);
    expect(statSync(path).size).toBe(size);
    const read = await readZip(path);
    expect([...read.keys()].sort()).toEqual([...contents.keys()].sort());
    for (const [name, data] of contents) {
      const e = read.get(name);
      expect(e?.method).toBe(8);
      expect(e?.data.equals(data)).toBe(true);
      expect(e?.crc).toBe(crc32(data) >>> 0);
    }
    const raw = [...contents.values()].reduce((s, b) => s + b.length, 0);
    expect(size).toBeLessThan(raw * 0.75);
  });

  it('continues from a checkpoint after a crash, to the same archive', async () => {
    const whole = join(dir, 'whole.zip');
    const run = options(whole, null);
    await writeDeflatedArchive(run.o);
    const last = run.checkpoints.at(-1);
    expect(last?.entries).toHaveLength(files.length);
    // A crash after the checkpoint of the first 5 entries, with more written after it.
    const path = join(dir, 'resumed.zip');
    copyFileSync(whole, path);
    const entries = (last as PackState).entries.slice(0, 5);
    let offset = 0;
    for (let i = 0; i < 5; i++) offset += 30 + Buffer.byteLength(files[i]?.name ?? '') + (entries[i]?.[1] ?? 0);
    const resumed = await writeDeflatedArchive(options(path, { entries, offset }).o);
    expect(resumed).toBe(statSync(whole).size);
    expect(readFileSync(path).equals(readFileSync(whole))).toBe(true);
    const read = await readZip(path);
    for (const [name, data] of contents) expect(read.get(name)?.data.equals(data)).toBe(true);
  });

  describe('padded up to a budget (the size an exam was declared with before the study was deflated)', () => {
    const exact = async (): Promise<number> => writeDeflatedArchive(options(join(dir, 'exact.zip'), null).o);

    it.each([
      ['by a few bytes (the comment only)', 7],
      ['by exactly the most a comment holds', 0xffff],
      ['by more than a comment holds (empty stored blocks, then the comment)', 0xffff + 3],
      ['by over a megabyte', 1_234_567],
    ])('comes out at the target when the data is short of it %s, and unpacks to the same bytes', async (_, extra) => {
      const target = (await exact()) + extra;
      const path = join(dir, `padded-${extra}.zip`);
      const budget: ArchiveBudget = { target, sealed: false };
      const committed: number[] = [];
      const size = await writeDeflatedArchive({
        ...options(path, null).o,
        budget,
        onCommitted: (offset) => committed.push(offset),
      });
      expect(size).toBe(target);
      expect(statSync(path).size).toBe(target);
      expect(budget.sealed).toBe(true);
      // What is committed only grows, and ends at the whole archive.
      expect(committed).toEqual([...committed].sort((a, b) => a - b));
      expect(committed.at(-1)).toBe(target);
      const read = await readZip(path);
      expect(read.size).toBe(contents.size);
      for (const [name, data] of contents) expect(read.get(name)?.data.equals(data), name).toBe(true);
    });

    it('keeps its own length when the data overshoots the target (the caller sees it differ)', async () => {
      const own = await exact();
      const path = join(dir, 'over.zip');
      const size = await writeDeflatedArchive({ ...options(path, null).o, budget: { target: own - 1, sealed: false } });
      expect(size).toBe(own);
      const read = await readZip(path);
      for (const [name, data] of contents) expect(read.get(name)?.data.equals(data), name).toBe(true);
    });

    it('ignores a target set after the writer sealed the budget', async () => {
      const own = await exact();
      const budget: ArchiveBudget = { target: null, sealed: false };
      const path = join(dir, 'sealed.zip');
      const o = options(path, null).o;
      const size = await writeDeflatedArchive({
        ...o,
        budget,
        // As the last entry is written the target is still unset; one set afterwards is too late.
        onCommitted: () => {
          if (budget.sealed) budget.target = own + 100_000;
        },
      });
      expect(size).toBe(own);
    });

    it('continues a padded archive from a checkpoint to the same bytes', async () => {
      const target = (await exact()) + 300_000;
      const whole = join(dir, 'padded-whole.zip');
      const run = options(whole, null);
      await writeDeflatedArchive({ ...run.o, budget: { target, sealed: false } });
      const last = run.checkpoints.at(-1) as PackState;
      const path = join(dir, 'padded-resumed.zip');
      copyFileSync(whole, path);
      const entries = last.entries.slice(0, 3);
      let offset = 0;
      for (let i = 0; i < 3; i++) offset += 30 + Buffer.byteLength(files[i]?.name ?? '') + (entries[i]?.[1] ?? 0);
      const resumed = await writeDeflatedArchive({
        ...options(path, { entries, offset }).o,
        budget: { target, sealed: false },
      });
      expect(resumed).toBe(target);
      expect(readFileSync(path).equals(readFileSync(whole))).toBe(true);
    });
  });

  describe("with libdeflate's whole-file codecs (an archive sent while written, half its files strong)", () => {
    const codecOf = (i: number) => streamCodec(0.5, i, files[i]?.size ?? 0);
    const expectOriginal = async (path: string): Promise<void> => {
      const read = await readZip(path);
      expect(read.size).toBe(contents.size);
      for (const [name, data] of contents) {
        expect(read.get(name)?.data.equals(data), name).toBe(true);
        expect(read.get(name)?.crc, name).toBe(crc32(data) >>> 0);
      }
    };

    it('unpacks to the original bytes, smaller than with zlib level 6 alone', async () => {
      expect(await pool.wholeFiles()).toBe(true);
      expect((contents.get('big/multi-chunk.dcm')?.length ?? 0) <= WHOLE_FILE_BYTES).toBe(true);
      const whole = join(dir, 'whole-codecs.zip');
      const size = await writeDeflatedArchive({ ...options(whole, null).o, codecOf });
      await expectOriginal(whole);
      const zlib = await writeDeflatedArchive({
        ...options(join(dir, 'zlib6.zip'), null).o,
        codecOf: () => STREAM_CODEC,
      });
      expect(size).toBeLessThan(zlib);
    });

    it('pads with stored blocks before a last entry libdeflate finished, and still unpacks', async () => {
      const exact = await writeDeflatedArchive({ ...options(join(dir, 'w-exact.zip'), null).o, codecOf });
      const path = join(dir, 'w-padded.zip');
      const target = exact + 0xffff + 1234;
      const size = await writeDeflatedArchive({
        ...options(path, null).o,
        codecOf,
        budget: { target, sealed: false },
      });
      expect(size).toBe(target);
      await expectOriginal(path);
    });

    it('falls back to zlib level 6 in workers without libdeflate, still whole', async () => {
      const bare = new DeflatePool(2, false);
      try {
        expect(await bare.wholeFiles()).toBe(false);
        const path = join(dir, 'w-bare.zip');
        await writeDeflatedArchive({ ...options(path, null).o, pool: bare, codecOf });
        await expectOriginal(path);
      } finally {
        await bare.close();
      }
    });
  });
});
