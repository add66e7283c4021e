// `scanbridge scan` end to end: the real bin, spawned as a user would run it, on DCMTK files.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CbctExport } from '../../fixtures/dicom/generate';
import {
  newUid,
  writeCbctExport,
  writeCtSeries,
  writeDicom,
  writeMeshFiles,
  writeRadiograph,
  writeTruncated,
} from '../../fixtures/dicom/generate';
import { cliBin } from '@support/repo-paths';

const bin = cliBin;
const exec = promisify(execFile);

type Run = { code: number; stdout: string; stderr: string };

async function scanbridge(...args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [bin, ...args], {
      cwd: tmpdir(),
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

let tmp: string;
let cbct: CbctExport;
let cut: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'scanbridge-cli-scan-'));
  cbct = await writeCbctExport(join(tmp, 'exports', 'cbct'), { volumeSlices: 70, scoutSlices: 3 });
  await writeRadiograph(join(tmp, 'exports', 'rx', 'pano.dcm'), {
    modality: 'PX',
    patientName: 'PÉREZ^MARÍA JOSÉ',
    charset: 'utf8',
    patientId: '87654321X',
    birthDate: '19751224',
    studyDate: '20260215',
  });
  await writeMeshFiles(join(tmp, 'exports', 'intraoral'));
  const one = await writeCtSeries(join(tmp, 'exports', 'other'), { slices: 1, rows: 8, cols: 8, patientId: 'Z' });
  cut = await writeTruncated(one.files[0]?.path as string, join(tmp, 'exports', 'other', 'cut.dcm'), 400);
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('scanbridge scan', () => {
  it('prints one JSON object in the contract shape with --json', async () => {
    const run = await scanbridge('scan', join(tmp, 'exports'), '--json');
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    const out = JSON.parse(run.stdout) as {
      studies: Record<string, unknown>[];
      skipped: { path: string; reason: string }[];
      dicomdir_records?: number;
    };
    expect(out.studies).toHaveLength(4);
    const study = out.studies.find((s) => s.study_uid === cbct.studyUid);
    expect(study).toMatchObject({
      study_uid: cbct.studyUid,
      patient_name: 'JUAN CARLOS MUÑOZ',
      patient_name_raw: 'MUÑOZ^JUAN CARLOS',
      patient_id: '12345678Z',
      birth_date: '1980-01-31',
      study_date: '2026-03-02',
      modality: 'CT',
      description: 'CBCT maxilar',
      suggested_exam_type: 'cbct',
      series: cbct.series.map((s) =>
        expect.objectContaining({ series_uid: s.seriesUid, modality: 'CT', files: s.files.length }),
      ),
      files: 73,
      bytes: cbct.bytes,
    });
    // No per-file lists in the CLI output.
    expect(JSON.stringify(out)).not.toContain('file_list');
    const rx = out.studies.find((s) => s.modality === 'PX');
    expect(rx).toMatchObject({
      patient_name: 'MARÍA JOSÉ PÉREZ',
      patient_name_raw: 'PÉREZ^MARÍA JOSÉ',
      birth_date: '1975-12-24',
      suggested_exam_type: 'radiografia',
    });
    expect(out.studies.find((s) => s.modality === 'MESH')).toMatchObject({ suggested_exam_type: 'mesh', files: 4 });
    expect(out.skipped).toEqual(
      expect.arrayContaining([
        { path: cut, reason: 'truncated', size: 400 },
        ...cbct.junk.map((p) => expect.objectContaining({ path: p, reason: 'not_dicom' })),
      ]),
    );
    // The DICOMDIR is no study: it is listed in skipped with its own reason.
    expect(out.skipped).toContainEqual({ path: cbct.dicomdir, reason: 'dicomdir' });
    expect(out.skipped).toHaveLength(5);
    expect(out.dicomdir_records).toBe(1 + 1 + 2 + 73);
    // Every file under the folder is accounted for, in a study or in skipped.
    const onDisk = readdirSync(join(tmp, 'exports'), { recursive: true, withFileTypes: true }).filter((e) =>
      e.isFile(),
    ).length;
    const inStudies = out.studies.reduce((n, s) => n + (s['files'] as number), 0);
    expect(inStudies + out.skipped.length).toBe(onDisk);
  });

  it('keeps a whole image without Pixel Data in its study (prefill and name kept), not in skipped', async () => {
    // A study of 3 slices plus one image written without the element, and a study made of one such
    // image alone (as some systems write them): both are studies, neither file is skipped.
    const root = join(tmp, 'no-pixels');
    const series = await writeCtSeries(join(root, 'ct'), { slices: 3, rows: 8, cols: 8, patientId: 'NP-1' });
    const bare = await writeDicom(join(root, 'ct', 'IM000004.dcm'), {
      studyUid: series.studyUid,
      seriesUid: series.seriesUid,
      instanceNumber: 4,
      patientId: 'NP-1',
      patientName: 'MUÑOZ^JUAN CARLOS',
      pixels: 'none',
    });
    const alone = await writeDicom(join(root, 'alone', 'IM1.dcm'), {
      studyUid: newUid(),
      seriesUid: newUid(),
      modality: 'OT',
      patientId: 'NP-2',
      patientName: 'PÉREZ^MARÍA JOSÉ',
      charset: 'utf8',
      studyDate: '20260215',
      pixels: 'none',
    });
    const run = await scanbridge('scan', root, '--json');
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { studies: Record<string, unknown>[]; skipped: unknown[] };
    expect(out.skipped).toEqual([]);
    expect(out.studies.find((s) => s.patient_id === 'NP-1')).toMatchObject({
      study_uid: series.studyUid,
      files: 4,
      bytes: series.bytes + bare.size,
    });
    expect(out.studies.find((s) => s.patient_id === 'NP-2')).toMatchObject({
      patient_name: 'MARÍA JOSÉ PÉREZ',
      study_date: '2026-02-15',
      files: 1,
      bytes: alone.size,
    });
  });

  it('prints a human summary without --json', async () => {
    const run = await scanbridge('scan', cbct.root);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('1 study, 73 files');
    expect(run.stdout).toContain('JUAN CARLOS MUÑOZ');
    expect(run.stdout).toContain('cbct');
    expect(run.stdout).toContain('Skipped 3: not_dicom 3');
  });

  it('exits 1 with a clear message for a folder that does not exist', async () => {
    const run = await scanbridge('scan', join(tmp, 'missing'), '--json');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`folder not found: ${join(tmp, 'missing')}`);
  });

  it('exits 1 when given a file instead of a folder', async () => {
    const file = join(tmp, 'file.txt');
    writeFileSync(file, 'x');
    const run = await scanbridge('scan', file);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('not a folder');
  });

  it('exits 2 with usage for a missing folder argument or an unknown option', async () => {
    for (const args of [['scan'], ['scan', tmp, '--jsn'], ['scan', tmp, tmp]]) {
      const run = await scanbridge(...args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('usage: scanbridge scan <dir> [--json]');
    }
  });
});
