// The fixtures the DICOM tests rely on are themselves valid DICOM, as DCMTK reads them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUid, writeCbctExport, writeCtSeries, writeDicom } from '@fixtures/dicom/generate';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'scanbridge-fixtures-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function dcmdump(...args: string[]): string {
  // dcmdump exits non-zero when it cannot parse a file; stderr carries its warnings.
  return execFileSync('dcmdump', args, { encoding: 'latin1', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('DCMTK fixtures', () => {
  it('writes 512×512 16-bit CT slices whose copies DCMTK reads in full, each with its own UID and number', async () => {
    const s = await writeCtSeries(join(tmp, 'ct'), { slices: 5, patientName: 'MUÑOZ^JUAN CARLOS', charset: 'latin1' });
    expect(s.files.every((f) => f.size > 512 * 512 * 2)).toBe(true);
    const last = s.files[4]?.path as string;
    const dump = dcmdump('-M', last);
    expect(dump).toContain(`[${s.files[4]?.sopInstanceUid}]`);
    expect(dump).toMatch(/\(0020,0013\) IS \[000005\]/);
    expect(dump).toMatch(/\(7fe0,0010\) OW .*# 524288,/);
    expect(dump.match(new RegExp(String(s.files[4]?.sopInstanceUid).replace(/\./g, '\\.'), 'g'))).toHaveLength(2);
    expect(new Set(s.files.map((f) => f.sopInstanceUid)).size).toBe(5);
  });

  it('writes a bare implicit VR data set that DCMTK reads without a meta group', async () => {
    const f = await writeDicom(join(tmp, 'raw.dcm'), {
      studyUid: newUid(),
      seriesUid: newUid(),
      transferSyntax: 'raw-implicit',
      rows: 8,
      cols: 8,
      patientName: 'RAW^X',
    });
    expect(dcmdump(f.path)).toMatch(/Used TransferSyntax: Little Endian Implicit[\s\S]*PatientName/);
  });

  it('writes a DICOMDIR that indexes every image of the export', async () => {
    const e = await writeCbctExport(join(tmp, 'export'), { volumeSlices: 4, scoutSlices: 2 });
    const dump = dcmdump(e.dicomdir as string);
    expect(dump.match(/DirectoryRecordType/g)).toHaveLength(1 + 1 + 2 + 6);
    expect(dump).toContain(`[${e.studyUid}]`);
  });
});
