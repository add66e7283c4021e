import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  chooseTransport,
  decideTransport,
  sampleCompressibility,
  singlePutExposure,
  type TransportInput,
} from '@main/core/upload/compression-choice';
import {
  LINK_RATE_FILE,
  blendRate,
  readLinkRates,
  recordDeflateRate,
  recordUploadRate,
} from '@main/core/upload/link-rate';
import { planUpload } from '@main/core/upload/plan';
import { phantomSlice } from '@support/phantom';

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

  it('samples the study: a CBCT-like slice deflates, noise does not', () => {
    const tissue = join(dir, 'tissue.raw');
    const noise = join(dir, 'noise.raw');
    writeFileSync(tissue, phantomSlice(256, 3, 'cbct'));
    writeFileSync(noise, randomBytes(256 * 256 * 2));
    const t = sampleCompressibility([{ path: tissue, size: 256 * 256 * 2 }]);
    const n = sampleCompressibility([{ path: noise, size: 256 * 256 * 2 }]);
    expect(t?.ratio ?? 1).toBeLessThan(0.6);
    expect(n?.ratio ?? 0).toBeGreaterThan(0.99);
    expect(t?.deflateBytesPerS ?? 0).toBeGreaterThan(0);
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
    expect(chooseTransport(plan, o).plan).toMatchObject({ mode: 'zip', compress: true });
    expect(chooseTransport(noisePlan, o).plan).toMatchObject({ mode: 'files', compress: false });
    rates(1e9 / 8);
    expect(chooseTransport(plan, o).plan).toMatchObject({ mode: 'files', compress: false });
  });
});
