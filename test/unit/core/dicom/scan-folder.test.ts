import { mkdtempSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { scanFolder, scanPoolStatus, ScanFolderError, stopScanWorkers } from '@main/core/dicom';
import type { CbctExport, WrittenSeries } from '@fixtures/dicom/generate';
import {
  copyInto,
  writeCbctExport,
  writeCtSeries,
  writeMeshFiles,
  writeRadiograph,
  writeTruncated,
} from '@fixtures/dicom/generate';

let tmp: string;
let cbct: CbctExport;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'scanbridge-scan-'));
  cbct = await writeCbctExport(join(tmp, 'cbct'));
});

afterAll(async () => {
  await stopScanWorkers();
  rmSync(tmp, { recursive: true, force: true });
});

describe('scanFolder on a scanner export', () => {
  it('finds one study with its two series in nested folders and lists the junk as not DICOM', async () => {
    const result = await scanFolder(cbct.root);
    expect(result.studies).toHaveLength(1);
    const study = result.studies[0];
    expect(study?.study_uid).toBe(cbct.studyUid);
    expect(study?.patient_name).toBe('JUAN CARLOS MUÑOZ');
    expect(study?.patient_name_raw).toBe('MUÑOZ^JUAN CARLOS');
    expect(study?.patient_id).toBe('12345678Z');
    expect(study?.birth_date).toBe('1980-01-31');
    expect(study?.study_date).toBe('2026-03-02');
    expect(study?.modality).toBe('CT');
    expect(study?.suggested_exam_type).toBe('cbct');
    expect(study?.description).toBe('CBCT maxilar');
    expect(study?.series.map((s) => [s.series_uid, s.files])).toEqual(
      cbct.series.map((s) => [s.seriesUid, s.files.length]),
    );
    expect(study?.files).toBe(cbct.files);
    expect(study?.bytes).toBe(cbct.bytes);
    expect(study?.root).toBe(join(cbct.root, 'DICOM', 'PAT00001', 'STU00001'));
    expect(study?.warnings).toEqual([]);
    expect(result.skipped.map((s) => [s.path, s.reason])).toEqual(cbct.junk.map((p) => [p, 'not_dicom']).sort());
  });

  it('does not count the DICOMDIR as a study but reports its records and the expected file count', async () => {
    const result = await scanFolder(cbct.root);
    // 1 patient + 1 study + 2 series + 15 images.
    expect(result.dicomdir_records).toBe(19);
    expect(result.dicomdir_instances).toBe(15);
    expect(result.studies[0]?.expected_files).toBe(15);
    expect(result.skipped.some((s) => s.path.endsWith('DICOMDIR'))).toBe(false);
  });

  it('flags a study with fewer files than its DICOMDIR lists', async () => {
    const partial = await writeCbctExport(join(tmp, 'partial'), { volumeSlices: 5, scoutSlices: 1 });
    rmSync(partial.series[0]?.files[4]?.path ?? '');
    const result = await scanFolder(partial.root);
    expect(result.studies[0]?.files).toBe(5);
    expect(result.studies[0]?.expected_files).toBe(6);
    expect(result.studies[0]?.warnings).toContain('fewer_files_than_dicomdir');
  });

  it('gives every series its files in instance order with sizes and relative paths', async () => {
    const result = await scanFolder(cbct.root);
    const series = result.studies[0]?.series[0];
    const written = cbct.series[0] as WrittenSeries;
    expect(series?.file_list.map((f) => f.path)).toEqual(written.files.map((f) => f.path));
    expect(series?.file_list.map((f) => f.size)).toEqual(written.files.map((f) => f.size));
    expect(series?.file_list[0]?.relative_path).toBe('SER00001/IMG00001');
    expect(series?.file_list.every((f) => f.complete)).toBe(true);
  });
});

describe('scanFolder on mixed folders', () => {
  it('skips a truncated file with the reason truncated and keeps scanning', async () => {
    const dir = join(tmp, 'truncated');
    const series = await writeCtSeries(dir, {
      slices: 3,
      rows: 32,
      cols: 32,
      patientName: 'PÉREZ^MARÍA JOSÉ',
      charset: 'utf8',
    });
    const source = series.files[0]?.path as string;
    const cut = await writeTruncated(source, join(dir, 'cut.dcm'), 300);
    const result = await scanFolder(dir);
    expect(result.studies[0]?.files).toBe(3);
    expect(result.skipped).toEqual([{ path: cut, reason: 'truncated', size: 300 }]);
  });

  it('separates radiographs, CBCT and meshes into studies with the right suggested exam types', async () => {
    const dir = join(tmp, 'mixed');
    await writeRadiograph(join(dir, 'rx', 'pano.dcm'), {
      modality: 'PX',
      patientName: 'GARCÍA^ANA',
      charset: 'latin1',
      patientId: 'P1',
    });
    await writeRadiograph(join(dir, 'rx', 'intraoral.dcm'), {
      modality: 'IO',
      patientName: 'GARCÍA^ANA',
      charset: 'latin1',
      patientId: 'P1',
    });
    await writeCtSeries(join(dir, 'ct'), { slices: 2, rows: 16, cols: 16, patientId: 'P2', patientName: 'LÓPEZ^LUIS' });
    await writeCtSeries(join(dir, 'mr'), {
      slices: 1,
      rows: 16,
      cols: 16,
      modality: 'MR',
      patientId: 'P3',
      patientName: 'RUIZ^EVA',
    });
    await writeMeshFiles(join(dir, 'scan'));
    const result = await scanFolder(dir);
    expect(result.studies.map((s) => s.root.slice(dir.length + 1)).sort()).toEqual(['ct', 'mr', 'rx', 'rx', 'scan']);
    expect(result.studies).toHaveLength(5);
    const types = result.studies.map((s) => `${s.modality}:${s.suggested_exam_type}`).sort();
    expect(types).toEqual(['CT:cbct', 'IO:radiografia', 'MESH:mesh', 'MR:cbct', 'PX:radiografia']);
    expect(result.studies.find((s) => s.modality === 'MR')?.warnings).toContain('unknown_modality');
    const mesh = result.studies.find((s) => s.modality === 'MESH');
    expect(mesh?.study_uid).toMatch(/^mesh:[0-9a-f]{40}$/);
    expect(mesh?.files).toBe(4);
    expect(mesh?.series[0]?.modality).toBe('MESH');
  });

  it('warns when one study carries two different patient names', async () => {
    const dir = join(tmp, 'two-names');
    const a = await writeCtSeries(dir, {
      slices: 2,
      rows: 16,
      cols: 16,
      patientName: 'MUÑOZ^JUAN',
      patientId: 'X1',
      charset: 'latin1',
    });
    await writeCtSeries(join(dir, 'b'), {
      slices: 1,
      rows: 16,
      cols: 16,
      patientName: 'MUNOZ^JUAN',
      patientId: 'X1',
      studyUid: a.studyUid,
    });
    const result = await scanFolder(dir);
    expect(result.studies).toHaveLength(1);
    expect(result.studies[0]?.series).toHaveLength(2);
    expect(result.studies[0]?.warnings).toContain('multiple_patient_names');
  });

  it('follows a link to a folder but not around a link loop, and lists a dangling link as unreadable', async () => {
    const dir = join(tmp, 'links');
    await writeCtSeries(join(dir, 'real'), { slices: 2, rows: 16, cols: 16, patientId: 'L1' });
    symlinkSync(dir, join(dir, 'real', 'loop'));
    symlinkSync(join(dir, 'missing'), join(dir, 'dangling.dcm'));
    const result = await scanFolder(dir);
    expect(result.studies[0]?.files).toBe(2);
    expect(result.skipped).toEqual([{ path: join(dir, 'dangling.dcm'), reason: 'unreadable', size: 0 }]);
  });

  it('rejects a folder that does not exist with a clear error', async () => {
    await expect(scanFolder(join(tmp, 'nope'))).rejects.toThrow(ScanFolderError);
    await expect(scanFolder(join(tmp, 'nope'))).rejects.toThrow(/folder not found/);
  });
});

describe('scanFolder on a large folder', () => {
  let dir: string;
  let series: WrittenSeries;
  beforeAll(async () => {
    dir = join(tmp, 'large');
    series = await writeCtSeries(dir, {
      slices: 150,
      rows: 16,
      cols: 16,
      patientName: 'MUÑOZ^JUAN CARLOS',
      charset: 'latin1',
      patientId: 'B1',
    });
    mkdirSync(join(dir, 'junk'));
    for (let i = 0; i < 20; i++) writeFileSync(join(dir, 'junk', `note${i}.txt`), `note ${i}\n`);
    await copyInto(series.files[0]?.path as string, join(dir, 'dup', 'copy.dcm'));
  });

  it('reads the files on worker threads and finds the same as a scan in the calling thread', async () => {
    // A cold scan reads in the calling thread while the two workers start; once they are
    // ready, later scans hand every file to them.
    const cold = await scanFolder(dir);
    await vi.waitFor(() => expect(scanPoolStatus()).toEqual({ workers: 2, ready: 2, unavailable: false }), {
      timeout: 20_000,
      interval: 50,
    });
    const progress: number[] = [];
    const pooled = await scanFolder(dir, { onProgress: (p) => progress.push(p.done) });
    expect(scanPoolStatus()).toEqual({ workers: 2, ready: 2, unavailable: false });
    expect(pooled).toEqual(cold);
    const inThread = await scanFolder(dir, { workers: false });
    expect(pooled).toEqual(inThread);
    expect(pooled.studies[0]?.files).toBe(151);
    expect(pooled.studies[0]?.warnings).toEqual(['duplicate_instances']);
    expect(pooled.skipped).toHaveLength(20);
    expect(progress.at(-1)).toBe(171);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('stops when its signal is aborted', async () => {
    const controller = new AbortController();
    const scan = scanFolder(dir, {
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(scan).rejects.toThrow(/abort/i);
  });
});
