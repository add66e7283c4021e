// Which transfer syntax the listener takes when a sender offers several: the one the service's
// viewer reads best (explicit VR little endian, or the image's own compressed syntax), whatever
// the sender's order, in one context or in one context per syntax. Files go through DCMTK's
// storescu, which converts to whatever syntax was accepted.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDicomHeaderSync } from '@main/core/dicom';
import { silentLogger } from '@main/core/log';
import { type ReceiveConfig, ReceiveService } from '@main/core/receive';
import { writeCtSeries, type WrittenSeries } from '@fixtures/dicom/generate';
import { dcmtk, pixelData } from '@support/harness/receive-harness';

const EXPLICIT_LE = '1.2.840.10008.1.2.1';
const IMPLICIT_LE = '1.2.840.10008.1.2';
const JPEG_LS_LOSSLESS = '1.2.840.10008.1.2.4.80';

const dir = mkdtempSync(join(tmpdir(), 'sb-receive-ts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config: ReceiveConfig = {
  aeTitle: 'SCANBRIDGE',
  allowed: [],
  examType: 'from_dicom',
  port: 0,
  quietSeconds: 60,
  stoppedAfterMinutes: 60,
  mode: 'auto',
};

let series: WrittenSeries;
let jpegLs: string;

beforeAll(async () => {
  series = await writeCtSeries(join(dir, 'src'), { slices: 2, rows: 32, cols: 32, pixels: 'pattern' });
  jpegLs = join(dir, 'jpeg-ls.dcm');
  await promisify(execFile)('dcmcjpls', [series.files[0]?.path as string, jpegLs]);
});

/** Every file the listener stored under `root`. */
function storedFiles(root: string): string[] {
  return readdirSync(join(root, 'studies'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.dcm'))
    .map((e) => join(e.parentPath, e.name));
}

/** Sends `paths` with storescu and these transfer-syntax options; the syntaxes of the stored files. */
async function sendWith(name: string, options: string[], paths: string[]): Promise<string[]> {
  const root = join(dir, name);
  const service = new ReceiveService({ root, config, log: silentLogger });
  const port = await service.start();
  try {
    const sent = await dcmtk('storescu', [...options, '-aec', 'SCANBRIDGE', '127.0.0.1', String(port), ...paths]);
    expect(sent.code, sent.stderr).toBe(0);
    const files = storedFiles(root);
    expect(files).toHaveLength(paths.length);
    return files.map((f) => {
      const outcome = readDicomHeaderSync(f).outcome;
      if (outcome.kind !== 'dicom') throw new Error(`stored file not readable: ${JSON.stringify(outcome)}`);
      return outcome.header.transfer_syntax;
    });
  } finally {
    await service.close();
  }
}

describe('the transfer syntax the listener accepts', () => {
  const slices = (): string[] => series.files.map((f) => f.path);

  // storescu's orders: -xd deflated first, -xb big endian first, -xe little endian first, -xi
  // implicit only; +C puts them all in one presentation context, without it one context each.
  for (const [label, options] of [
    ['deflated offered first, one context', ['+C', '-xd']],
    ['deflated offered first, one context per syntax', ['-xd']],
    ['big endian offered first, one context', ['+C', '-xb']],
    ['big endian offered first, one context per syntax', ['-xb']],
    ['explicit little endian offered first, one context', ['+C', '-xe']],
  ] as const) {
    it(`stores explicit VR little endian when ${label}`, async () => {
      expect(await sendWith(label.replaceAll(/\W+/g, '-'), [...options], slices())).toEqual([EXPLICIT_LE, EXPLICIT_LE]);
    });
  }

  it('takes implicit VR when it is all the sender offers', async () => {
    expect(await sendWith('implicit-only', ['-xi'], slices())).toEqual([IMPLICIT_LE, IMPLICIT_LE]);
  });

  it("keeps an image's own compressed syntax (JPEG-LS) when the sender offers it first, with the same pixel data", async () => {
    for (const [name, options] of [
      ['jls-combined', ['+C', '-xt']],
      ['jls-separate', ['-xt']],
    ] as const) {
      expect(await sendWith(name, [...options], [jpegLs])).toEqual([JPEG_LS_LOSSLESS]);
      const stored = storedFiles(join(dir, name))[0] as string;
      expect(pixelData(readFileSync(stored)).equals(pixelData(readFileSync(jpegLs)))).toBe(true);
    }
  });
});
