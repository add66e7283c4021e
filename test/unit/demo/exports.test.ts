// The demo's own DICOM writer: files DCMTK accepts, that ScanBridge's reader groups into the
// expected studies with the Spanish names decoded from ISO_IR 100 and ISO_IR 192.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanFolder } from '@main/core/dicom';
import type { ScanResult } from '@main/core/dicom';
import { sampleExports, writeLikeAScanner } from '@main/demo/exports';

const exec = promisify(execFile);
let dir: string;
let scan: ScanResult;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-demo-exports-'));
  for (const e of sampleExports({ cbctSlices: 12, cbctSize: 64, studyDate: '20260302' }))
    await writeLikeAScanner(e, dir, 0);
  scan = await scanFolder(dir, { workers: false });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('demo sample exports', () => {
  it('are valid DICOM for DCMTK', async () => {
    const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(files).toHaveLength(12 + 1 + 4);
    for (const f of files) {
      const { stdout, stderr } = await exec('dcmdump', ['-q', '+sb', 'PixelData', join(f.parentPath, f.name)]);
      expect(stderr).toBe('');
      expect(stdout).toContain('(0010,0010) PN');
      expect(stdout).toContain('(0002,0010) UI =LittleEndianExplicit');
    }
  });

  it('read back as three studies with the Spanish names in both character sets', () => {
    expect(scan.skipped).toEqual([]);
    const byModality = new Map(scan.studies.map((s) => [s.modality, s]));
    expect(byModality.get('CT')).toMatchObject({
      patient_name: 'JUAN CARLOS MUÑOZ',
      patient_name_raw: 'MUÑOZ^JUAN CARLOS',
      character_set: 'ISO_IR 100',
      suggested_exam_type: 'cbct',
      files: 12,
      study_date: '2026-03-02',
      birth_date: '1980-01-31',
    });
    expect(byModality.get('PX')).toMatchObject({
      patient_name: 'MARÍA JOSÉ PÉREZ',
      character_set: 'ISO_IR 192',
      suggested_exam_type: 'radiografia',
      files: 1,
    });
    expect(byModality.get('IO')).toMatchObject({
      patient_name: 'ÁLVARO NÚÑEZ',
      character_set: 'ISO_IR 100',
      suggested_exam_type: 'radiografia',
      files: 4,
    });
    for (const s of scan.studies) {
      expect(s.warnings).toEqual([]);
      expect(s.series.flatMap((x) => x.file_list).every((f) => f.complete)).toBe(true);
    }
  });

  it('default to a CBCT of realistic size', () => {
    const [cbct, pano] = sampleExports();
    expect(cbct?.files).toHaveLength(300);
    // 400×400 16-bit slices: about 96 MB for the volume.
    expect(cbct?.files[0]?.bytes().length).toBeGreaterThan(400 * 400 * 2);
    expect(pano?.files[0]?.bytes().length).toBeGreaterThan(1200 * 2400 * 2);
  });
});
