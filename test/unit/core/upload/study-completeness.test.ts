// Completeness before create, on real DCMTK files: a slice cut short and a damaged file are named
// with their reason, junk stays "skipped", and leaving them out keeps the rest of the study.
import { mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanFolder, stopScanWorkers } from '@main/core/dicom';
import {
  describeIncomplete,
  incompleteFiles,
  studyIncompleteFiles,
  withoutIncomplete,
} from '@main/core/upload/plan/study-completeness';
import { type CbctExport, writeCbctExport } from '@fixtures/dicom/generate';

let tmp: string;
let ex: CbctExport;
let cut: string;
let damaged: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'sb-complete-'));
  ex = await writeCbctExport(join(tmp, 'ex'), { volumeSlices: 5, scoutSlices: 1, dicomdir: false });
  cut = ex.series[0]?.files[1]?.path as string;
  truncateSync(cut, Math.floor(statSync(cut).size / 2));
  // A file that starts like DICOM (preamble and magic) and breaks off inside its header.
  damaged = join(ex.root, 'DICOM', 'PAT00001', 'STU00001', 'SER00001', 'IMG99999');
  writeFileSync(
    damaged,
    Buffer.concat([Buffer.alloc(128), Buffer.from('DICM'), Buffer.from([0x02, 0x00, 0x10, 0x00, 0x55, 0x49, 0x40])]),
  );
});

afterAll(async () => {
  await stopScanWorkers();
  rmSync(tmp, { recursive: true, force: true });
});

const rel = (root: string, p: string): string => relative(root, p).split(sep).join('/');

describe('study completeness', () => {
  it('names the cut-short slice and the damaged file, and leaves the junk out of it', async () => {
    const scan = await scanFolder(ex.root, { workers: false });
    const list = incompleteFiles(scan);
    expect(list.map((f) => [f.name, f.reason])).toEqual(
      [
        [rel(ex.root, cut), 'cut_short'],
        [rel(ex.root, damaged), 'damaged'],
      ].sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1)),
    );
    expect(describeIncomplete(list, (s) => s)).toContain(`${rel(ex.root, cut)}: cut short`);
    // The same, per study, named from the study's folder (as the inbox shows it).
    const study = scan.studies[0];
    if (!study) throw new Error('no study');
    expect(
      studyIncompleteFiles(study, scan.skipped)
        .map((f) => f.name)
        .sort(),
    ).toEqual([rel(study.root, cut), rel(study.root, damaged)].sort());
  });

  it('leaving them out keeps every other file of the study', async () => {
    const scan = await scanFolder(ex.root, { workers: false });
    const rest = withoutIncomplete(scan, incompleteFiles(scan));
    const files = rest.studies.flatMap((s) => s.series.flatMap((se) => se.file_list.map((f) => f.path)));
    expect(files).toHaveLength(ex.files - 1);
    expect(files).not.toContain(cut);
    expect(rest.studies[0]?.files).toBe(ex.files - 1);
    expect(rest.skipped.map((s) => s.reason)).toEqual(['not_dicom', 'not_dicom', 'not_dicom']);
  });
});
