import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileSetFingerprint, scanFolder, studyFingerprint } from '@main/core/dicom';
import { writeCbctExport } from '@fixtures/dicom/generate';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'scanbridge-fp-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('file set fingerprints', () => {
  it('does not depend on file order', () => {
    const a = [
      { relative_path: 'a/1.dcm', size: 10 },
      { relative_path: 'b/2.dcm', size: 20 },
    ];
    expect(fileSetFingerprint(a)).toBe(fileSetFingerprint([...a].reverse()));
    expect(fileSetFingerprint(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes when a size, a name or the number of files changes', () => {
    const a = [{ relative_path: 'a/1.dcm', size: 10 }];
    const fp = fileSetFingerprint(a);
    expect(fileSetFingerprint([{ relative_path: 'a/1.dcm', size: 11 }])).not.toBe(fp);
    expect(fileSetFingerprint([{ relative_path: 'a/2.dcm', size: 10 }])).not.toBe(fp);
    expect(fileSetFingerprint([...a, { relative_path: 'a/2.dcm', size: 10 }])).not.toBe(fp);
  });

  it('is the same for the same export found at two different mount points', async () => {
    const one = await writeCbctExport(join(tmp, 'share-a'), { volumeSlices: 3, scoutSlices: 1, dicomdir: false });
    const [first] = (await scanFolder(one.root)).studies;
    cpSync(one.root, join(tmp, 'share-b', 'nested'), { recursive: true });
    const [second] = (await scanFolder(join(tmp, 'share-b'))).studies;
    expect(first && second && studyFingerprint(first)).toBe(second && studyFingerprint(second));
    // A file that grows (an export still being written) changes it.
    appendFileSync(second?.series[0]?.file_list[0]?.path ?? '', Buffer.alloc(10));
    const [third] = (await scanFolder(join(tmp, 'share-b'))).studies;
    expect(third?.files).toBe(4);
    expect(third && studyFingerprint(third)).not.toBe(first && studyFingerprint(first));
  });
});
