import { execFile } from 'node:child_process';
import { copyFile, mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { scanFolder } from '@main/core/dicom';
import { incompleteReasons } from '@main/core/watch/completeness';
import { takeSnapshot } from '@main/core/watch/snapshot';
import { writeTruncated } from '@fixtures/dicom/generate';
import { smallSeries, tempDir } from '@support/harness/watch-harness';

const run = promisify(execFile);
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function judge(dir: string): Promise<ReturnType<typeof incompleteReasons>> {
  const snap = await takeSnapshot(dir, true);
  if (!snap) throw new Error('no snapshot');
  return incompleteReasons(await scanFolder(dir, { workers: false }), snap);
}

describe('incompleteReasons', () => {
  it('finds nothing wrong in a whole export with junk files and marker files', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    await smallSeries(join(dir, 'SER1'), 3);
    await writeFile(join(dir, 'README.TXT'), 'Exported by the CBCT workstation.\r\n');
    await writeFile(join(dir, '.scanbridge-claim-0011223344556677-1'), '{}');
    expect(await judge(dir)).toEqual([]);
  });

  it('names truncated headers, short pixel data and cut compressed images', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const staging = join(dir, 'staging');
    const exp = join(dir, 'export');
    const s = await smallSeries(staging, 3);
    const [a, b, c] = s.files;
    if (!a || !b || !c) throw new Error('series not written');
    await mkdir(exp);
    await copyFile(a.path, join(exp, 'whole.dcm'));
    await writeTruncated(b.path, join(exp, 'header-cut.dcm'), 200);
    await writeTruncated(c.path, join(exp, 'pixels-cut.dcm'), c.size - 100);
    await run('dcmcrle', [a.path, join(staging, 'rle.dcm')]);
    const rleSize = (await stat(join(staging, 'rle.dcm'))).size;
    await writeTruncated(join(staging, 'rle.dcm'), join(exp, 'rle-cut.dcm'), rleSize - 20);
    const reasons = await judge(exp);
    expect(reasons).toEqual(
      expect.arrayContaining([
        { kind: 'truncated_file', path: join(exp, 'header-cut.dcm') },
        { kind: 'pixel_data_incomplete', path: join(exp, 'pixels-cut.dcm') },
        { kind: 'pixel_data_incomplete', path: join(exp, 'rle-cut.dcm') },
      ]),
    );
    expect(reasons).toHaveLength(3);
  });

  it('notices a file that changed between the snapshot and the scan', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const s = await smallSeries(dir, 2);
    const snap = await takeSnapshot(dir, true);
    await writeFile((s.files[1] as { path: string }).path, Buffer.alloc(10));
    await smallSeries(join(dir, 'more'), 1, { studyUid: s.studyUid });
    const reasons = await incompleteReasons(
      await scanFolder(dir, { workers: false }),
      snap as NonNullable<typeof snap>,
    );
    expect(reasons).toContainEqual({ kind: 'changed_while_checking' });
  });
});
