import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  atShare,
  BUDGET_MARGIN,
  chooseTransport,
  decideTransport,
  UNMEASURED_LINK_FOR_SHARE,
  sampleCompressibility,
  sampleStrong,
  singlePutExposure,
  strongShare,
  type Sample,
  type StudySample,
  type TransportInput,
  worthSampling,
} from '@main/core/upload/compression/compression-choice';
import {
  type ChunkTask,
  type Codec,
  DeflatePool,
  STREAM_CODEC,
  streamCodec,
} from '@main/core/upload/compression/deflate-pool';
import { archiveOverhead, writeDeflatedArchive } from '@main/core/upload/compression/deflated-zip';
import type { ZipEntryFile } from '@main/core/upload/transfer/zip';
import {
  LINK_RATE_FILE,
  blendRate,
  readLinkRates,
  recordDeflateRate,
  recordUploadRate,
} from '@main/core/upload/compression/link-rate';
import { planUpload } from '@main/core/upload/plan';
import { phantomSlice } from '@support/data/phantom';

const MB = 1e6;
/** A 400-slice CBCT of 512 KiB slices (210 MB), compressing 2.2×, on a machine deflating 60 MB/s. */
function cbct(over: Partial<TransportInput>): TransportInput {
  const files = Array.from({ length: 400 }, () => ({ size: 524_288 + 1500 }));
  const bytes = files.reduce((s, f) => s + f.size, 0);
  return {
    requestedMode: 'auto',
    setting: 'auto',
    files,
    bytes,
    zipSize: bytes + 400 * 120,
    ratio: 1 / 2.2,
    linkBytesPerS: 40e6 / 8,
    bandwidthLimit: null,
    deflateBytesPerS: 60 * MB,
    concurrency: 6,
    ...over,
  };
}

describe('decideTransport (measured rates injected)', () => {
  it('a slow link and compressible data: compressed zip, and it says why', () => {
    const c = decideTransport(cbct({ linkBytesPerS: 40e6 / 8 }));
    expect(c).toMatchObject({ mode: 'zip', compress: true });
    expect(c.reason).toContain('2.2× smaller');
    expect(c.estimates.compressed ?? Infinity).toBeLessThan(c.estimates.files * 0.6);
  });

  it('a fast LAN (1 Gbit/s): no compression, files mode as before', () => {
    expect(decideTransport(cbct({ linkBytesPerS: 1e9 / 8 }))).toMatchObject({ mode: 'files', compress: false });
  });

  it('loopback, faster than this computer deflates: no compression', () => {
    expect(decideTransport(cbct({ linkBytesPerS: 400 * MB }))).toMatchObject({ compress: false });
  });

  it('incompressible data (JPEG, noise): sent as it is, even on a slow link', () => {
    const c = decideTransport(cbct({ linkBytesPerS: 10e6 / 8, ratio: 0.99 }));
    expect(c).toMatchObject({ mode: 'files', compress: false });
    expect(c.reason).toContain('does not compress');
  });

  it('a bandwidth limit counts as the link: a fast link limited to 2 MB/s compresses', () => {
    expect(decideTransport(cbct({ linkBytesPerS: 1e9 / 8, bandwidthLimit: 2 * MB }))).toMatchObject({
      compress: true,
    });
  });

  it('never and files mode never compress; always compresses whatever the link', () => {
    expect(decideTransport(cbct({ setting: 'never' })).compress).toBe(false);
    expect(decideTransport(cbct({ requestedMode: 'files', setting: 'always' }))).toMatchObject({
      mode: 'files',
      compress: false,
    });
    expect(decideTransport(cbct({ setting: 'always', linkBytesPerS: 1e9 }))).toMatchObject({
      mode: 'zip',
      compress: true,
    });
  });

  it('a study whose plain ZIP passes 1 GB goes compressed in zip mode when it then fits', () => {
    const files = Array.from({ length: 3000 }, () => ({ size: 600_000 }));
    const bytes = 3000 * 600_000;
    const c = decideTransport(cbct({ requestedMode: 'zip', files, bytes, zipSize: bytes + 3000 * 120 }));
    expect(c).toMatchObject({ mode: 'zip', compress: true });
    const worse = decideTransport(cbct({ requestedMode: 'zip', files, bytes, zipSize: bytes, ratio: 0.7 }));
    expect(worse.compress).toBe(false);
  });

  it('failure exposure: one long PUT risks more than the files it replaces', () => {
    expect(singlePutExposure(10)).toBeLessThan(0.1);
    expect(singlePutExposure(3600)).toBeGreaterThan(1000);
    // A 1 Mbit/s link: 210 MB plain takes ~28 min; compressed ~13 min plus its exposure, still better.
    const slow = decideTransport(cbct({ linkBytesPerS: 1e6 / 8 }));
    expect(slow.compress).toBe(true);
    expect(slow.estimates.compressed ?? 0).toBeGreaterThan((slow.estimates.files / 2.2) * 1.05);
  });
});

describe('measurements', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-choice-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const pool = new DeflatePool(2);
  afterAll(() => pool.close());
  const slices = (prefix: string, n: number, make: (z: number) => Buffer): ZipEntryFile[] =>
    Array.from({ length: n }, (_, z) => {
      const path = join(dir, `${prefix}${z}.dcm`);
      writeFileSync(path, make(z));
      return { name: `${prefix}${z}.dcm`, path, size: statSync(path).size, mtimeMs: statSync(path).mtimeMs };
    });

  it('samples the study: a CBCT-like slice deflates, noise does not; the strong codec makes slices smaller', async () => {
    const tissue = slices('t', 6, (z) => phantomSlice(256, z * 9, 'cbct'));
    const noise = slices('n', 6, () => randomBytes(256 * 256 * 2));
    const t = await sampleCompressibility(tissue, pool);
    const n = await sampleCompressibility(noise, pool);
    expect(t?.ratio ?? 1).toBeLessThan(0.6);
    expect(n?.ratio ?? 0).toBeGreaterThan(0.99);
    expect(t?.deflateBytesPerS ?? 0).toBeGreaterThan(0);
    const strong = await sampleStrong(tissue, pool);
    expect(strong?.factor ?? 1).toBeLessThan(0.99);
    expect(strong?.factor ?? 0).toBeGreaterThan(0.8);
    expect(strong?.bytesPerS ?? 0).toBeGreaterThan(0);
    // Workers without libdeflate: no strong sample, the plain one alone.
    const bare = new DeflatePool(2, false);
    try {
      expect(await sampleStrong(tissue, bare)).toBeNull();
    } finally {
      await bare.close();
    }
    const plainOnly = { plain: t as Sample, strong: null };
    expect(atShare(plainOnly, 1)).toEqual(t);
    expect(strongShare(plainOnly, 1e6, null, 2)).toBe(0);
  });

  it("takes the plain sample on the pool's workers, equal to zlib level 6 on the slices' heads; an unreadable slice is left out", async () => {
    const files = slices('w', 6, (z) => phantomSlice(256, z * 5, 'cbct'));
    files[2] = { ...(files[2] as ZipEntryFile), path: join(dir, 'gone.dcm') };
    const posted: [ChunkTask, Codec][] = [];
    const counting = new (class extends DeflatePool {
      override run(task: ChunkTask, codec?: Codec) {
        posted.push([task, codec ?? { kind: 'zlib', level: 1 }]);
        return super.run(task, codec);
      }
    })(2);
    try {
      const s = await sampleCompressibility(files, counting, 6, STREAM_CODEC.level);
      // Every slice went to the workers (the main thread deflated nothing), as zlib level 6 whole heads.
      expect(posted.map(([t]) => t.path)).toEqual(files.map((f) => f.path));
      expect(posted.every(([t, c]) => t.offset === 0 && t.last && c.kind === 'zlib' && c.level === 6)).toBe(true);
      const heads = files.filter((_, i) => i !== 2).map((f) => readFileSync(f.path).subarray(0, 512 * 1024));
      const packed = heads.reduce((a, h) => a + deflateRawSync(h, { level: 6 }).length, 0);
      const raw = heads.reduce((a, h) => a + h.length, 0);
      expect(s?.ratio).toBe(packed / raw);
      expect(s?.deflateBytesPerS ?? 0).toBeGreaterThan(0);
      expect(s?.spread ?? 1).toBeLessThan(0.05);
      // Nothing readable: no sample.
      expect(await sampleCompressibility([files[2] as ZipEntryFile], counting)).toBeNull();
    } finally {
      await counting.close();
    }
  });

  it.each([0, 0.45, 1])(
    'estimates the archive of a study with a strong share of %s within the budget margin',
    async (share) => {
      const files = slices('e', 40, (z) => phantomSlice(256, z * 3, 'cbct'));
      const raw = files.reduce((a, f) => a + f.size, 0);
      const m = atShare(
        {
          plain: (await sampleCompressibility(files, pool, 6, STREAM_CODEC.level)) as Sample,
          strong: await sampleStrong(files, pool),
        },
        share,
      );
      const path = join(dir, `estimate-${share}.zip`);
      const size = await writeDeflatedArchive({
        path,
        files,
        resume: null,
        pool,
        signal: new AbortController().signal,
        waitIfPaused: () => Promise.resolve(),
        onCheckpoint: () => undefined,
        onProgress: () => undefined,
        codecOf: (i) => streamCodec(share, i, files[i]?.size ?? 0),
      });
      const data = size - archiveOverhead(files);
      expect(data).toBeLessThanOrEqual(raw * m.ratio * (1 + BUDGET_MARGIN + 2 * m.spread));
      expect(data).toBeGreaterThan(raw * m.ratio * 0.97);
    },
  );

  it('deflates strong as much of the study as the workers can while still outpacing the link', () => {
    // Rates like those measured on CT slices here: plain 18 MB/s, strong 6.5 MB/s a core, 5 % smaller.
    const s: StudySample = {
      plain: { ratio: 0.49, spread: 0.003, deflateBytesPerS: 18e6 },
      strong: { factor: 0.95, spread: 0.002, bytesPerS: 6.5e6 },
    };
    expect(strongShare(s, 10e6 / 8, null, 2)).toBe(1);
    const mid = strongShare(s, 40e6 / 8, null, 2);
    expect(mid).toBeGreaterThan(0.3);
    expect(mid).toBeLessThan(1);
    // One worker: less strong.
    expect(strongShare(s, 40e6 / 8, null, 1)).toBeLessThan(mid);
    expect(strongShare(s, 1e9 / 8, null, 2)).toBe(0);
    // Until the link is measured, a fast clinic uplink is assumed; a bandwidth limit caps the link.
    expect(strongShare(s, null, null, 2)).toBe(strongShare(s, UNMEASURED_LINK_FOR_SHARE, null, 2));
    expect(strongShare(s, 1e9 / 8, 10e6 / 8, 2)).toBe(1);
    // The estimate follows the share: strong files shrink it, and deflate slower.
    expect(atShare(s, 1).ratio).toBeCloseTo(0.49 * 0.95, 6);
    expect(atShare(s, 0.5).deflateBytesPerS).toBeLessThan(atShare(s, 0).deflateBytesPerS);
  });

  it('samples (and starts the deflate workers) only where compression may be chosen', () => {
    const d = mkdtempSync(join(dir, 'worth-'));
    expect(worthSampling('files', 'always', readLinkRates(d), null)).toBe(false);
    expect(worthSampling('auto', 'never', readLinkRates(d), null)).toBe(false);
    // Nothing measured yet: maybe.
    expect(worthSampling('auto', 'auto', readLinkRates(d), null)).toBe(true);
    // A LAN: this computer deflates slower than the link sends.
    recordUploadRate(d, 500e6, 4);
    recordDeflateRate(d, 60e6, 2);
    expect(worthSampling('auto', 'auto', readLinkRates(d), null)).toBe(false);
    expect(worthSampling('zip', 'always', readLinkRates(d), null)).toBe(true);
    // …unless the bandwidth limit makes the link slower than deflating.
    expect(worthSampling('auto', 'auto', readLinkRates(d), 1e6)).toBe(true);
  });

  it('keeps measured rates between runs; transfers too small to say anything are not counted', () => {
    const d = mkdtempSync(join(dir, 'rates-'));
    recordUploadRate(d, 1e6, 5);
    expect(readLinkRates(d).upload_bytes_per_s).toBeNull();
    recordUploadRate(d, 20e6, 4);
    recordDeflateRate(d, 60e6, 2);
    expect(readLinkRates(d)).toMatchObject({ upload_bytes_per_s: 5e6, deflate_bytes_per_s: 30e6 });
  });

  it('blends link measurements, the newest and biggest counting most', () => {
    expect(blendRate(null, 5e6, 1e6)).toBe(5e6);
    const small = blendRate(5e6, 1e6, 5e6);
    const big = blendRate(5e6, 1e6, 500e6);
    expect(small).toBeLessThan(5e6);
    expect(big).toBeLessThan(small);
  });

  it('chooseTransport reads the kept rates: slow link → compressed, fast → plain, noise → plain', async () => {
    const root = join(dir, 'study');
    const noiseRoot = join(dir, 'noise');
    const files = [];
    const noiseFiles = [];
    for (let z = 0; z < 30; z++) {
      const p = join(dir, `s${z}.dcm`);
      writeFileSync(p, phantomSlice(256, z, 'cbct'));
      files.push({ path: p, name: `s${z}.dcm` });
      const q = join(dir, `n${z}.dcm`);
      writeFileSync(q, randomBytes(256 * 256 * 2));
      noiseFiles.push({ path: q, name: `n${z}.dcm` });
    }
    const plan = await planUpload({ root, fields: { name: 'x' }, files, mode: 'auto', compress: 'auto' });
    const noisePlan = await planUpload({ root: noiseRoot, fields: { name: 'y' }, files: noiseFiles, mode: 'auto' });
    const rates = (link: number): void =>
      writeFileSync(
        join(dir, LINK_RATE_FILE),
        JSON.stringify({ v: 1, upload_bytes_per_s: link, deflate_bytes_per_s: 50e6, updated_at: 1 }),
      );
    const o = { setting: 'auto', dataDir: dir, bandwidthLimit: null, concurrency: 6, workers: 2 } as const;
    rates(2e6 / 8);
    expect((await chooseTransport(plan, o)).plan).toMatchObject({ mode: 'zip', compress: true, sample: { strong: 1 } });
    expect((await chooseTransport(noisePlan, o)).plan).toMatchObject({ mode: 'files', compress: false });
    rates(1e9 / 8);
    expect((await chooseTransport(plan, o)).plan).toMatchObject({ mode: 'files', compress: false });
  });
});
