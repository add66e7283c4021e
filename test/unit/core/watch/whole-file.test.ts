import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encapsulationComplete, metaTransferSyntax, tailEndsEncapsulation } from '@main/core/watch/whole-file';
import { writeTruncated } from '@fixtures/dicom/generate';
import { smallSeries, tempDir } from '@support/harness/watch-harness';

const run = promisify(execFile);
const RLE = '1.2.840.10008.1.2.5';

let dir: string;
let cleanup: () => void;
let native: string;
let rle: string;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  const series = await smallSeries(join(dir, 'native'), 1);
  native = (series.files[0] as { path: string }).path;
  rle = join(dir, 'rle.dcm');
  await run('dcmcrle', [native, rle]);
});
afterAll(() => cleanup());

describe('whole-file checks', () => {
  it('reads the transfer syntax from the meta group', async () => {
    expect(metaTransferSyntax(await readFile(rle))).toBe(RLE);
    expect(metaTransferSyntax(await readFile(native))).toBe('1.2.840.10008.1.2.1');
    expect(
      metaTransferSyntax(Buffer.from('not a DICOM file at all, just some text that is long enough'.repeat(4))),
    ).toBe('');
  });

  it('accepts a whole RLE-compressed file and rejects one cut inside its fragments', async () => {
    const size = (await readFile(rle)).length;
    expect(await encapsulationComplete(rle)).toBe(true);
    const cut = await writeTruncated(rle, join(dir, 'rle-cut.dcm'), size - 20);
    expect(await encapsulationComplete(cut)).toBe(false);
  });

  it('leaves native and non-DICOM files to the header reader', async () => {
    expect(await encapsulationComplete(native)).toBe(true);
    const text = join(dir, 'README.TXT');
    await writeFile(text, 'Exported by the CBCT workstation.\r\n');
    expect(await encapsulationComplete(text)).toBe(true);
    expect(await encapsulationComplete(join(dir, 'missing.dcm'))).toBe(false);
  });

  it('accepts a delimiter followed by trailing padding', () => {
    const delimiter = [0xfe, 0xff, 0xdd, 0xe0, 0, 0, 0, 0];
    expect(tailEndsEncapsulation(Buffer.from([1, 2, ...delimiter]))).toBe(true);
    expect(
      tailEndsEncapsulation(
        Buffer.from([...delimiter, 0xfc, 0xff, 0xfc, 0xff, 0x4f, 0x42, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0]),
      ),
    ).toBe(true);
    expect(tailEndsEncapsulation(Buffer.from([...delimiter.slice(0, 6), 1, 2]))).toBe(false);
  });
});
