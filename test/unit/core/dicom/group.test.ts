import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanFolder } from '@main/core/dicom';
import { groupProbes } from '@main/core/dicom/scan/group';
import { newUid, writeCtSeries, writeRadiograph } from '@fixtures/dicom/generate';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'scanbridge-group-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('study warnings', () => {
  it('flags a missing patient ID and name', async () => {
    const dir = join(tmp, 'anon');
    await writeCtSeries(dir, { slices: 1, rows: 8, cols: 8 });
    const [study] = (await scanFolder(dir)).studies;
    expect(study?.patient_id).toBe('');
    expect(study?.patient_name).toBe('');
    expect(study?.warnings).toEqual(['missing_patient_id', 'missing_patient_name']);
  });

  it('flags a birth date in the future and one after the study date', async () => {
    const dir = join(tmp, 'future');
    await writeRadiograph(join(dir, 'a.dcm'), {
      modality: 'IO',
      patientId: 'F1',
      patientName: 'FUTURO^ANA',
      birthDate: '20990101',
      studyDate: '20260302',
    });
    const [study] = (await scanFolder(dir)).studies;
    expect(study?.birth_date).toBe('2099-01-01');
    expect(study?.warnings).toEqual(expect.arrayContaining(['future_birth_date', 'birth_after_study']));
  });

  it('keeps an invalid birth date as null without a warning about it', async () => {
    const dir = join(tmp, 'invalid-date');
    await writeRadiograph(join(dir, 'a.dcm'), {
      modality: 'PX',
      patientId: 'D1',
      patientName: 'FECHA^MALA',
      birthDate: '20230230',
      studyDate: '2026',
    });
    const [study] = (await scanFolder(dir)).studies;
    expect(study?.birth_date).toBeNull();
    expect(study?.study_date).toBeNull();
    expect(study?.warnings).toEqual([]);
  });

  it('flags one study that mixes two patient IDs', async () => {
    const dir = join(tmp, 'two-ids');
    const studyUid = newUid();
    await writeCtSeries(join(dir, 'a'), { slices: 1, rows: 8, cols: 8, studyUid, patientId: 'A', patientName: 'X^Y' });
    await writeCtSeries(join(dir, 'b'), { slices: 1, rows: 8, cols: 8, studyUid, patientId: 'B', patientName: 'X^Y' });
    const [study] = (await scanFolder(dir)).studies;
    expect(study?.warnings).toEqual(['multiple_patient_ids']);
    expect(study?.root).toBe(dir);
  });

  it('takes the modality most of the files have and orders series by number', async () => {
    const dir = join(tmp, 'modalities');
    const studyUid = newUid();
    await writeCtSeries(join(dir, 'report'), {
      slices: 1,
      rows: 8,
      cols: 8,
      studyUid,
      modality: 'OT',
      seriesNumber: 9,
      patientId: 'M',
      patientName: 'A^B',
    });
    await writeCtSeries(join(dir, 'vol'), {
      slices: 3,
      rows: 8,
      cols: 8,
      studyUid,
      seriesNumber: 2,
      patientId: 'M',
      patientName: 'A^B',
      seriesDescription: 'Volumen',
    });
    const [study] = (await scanFolder(dir)).studies;
    expect(study?.modality).toBe('CT');
    expect(study?.suggested_exam_type).toBe('cbct');
    expect(study?.series.map((s) => [s.number, s.modality, s.files])).toEqual([
      [2, 'CT', 3],
      [9, 'OT', 1],
    ]);
    expect(study?.description).toBe('Volumen');
  });
});

describe('groupProbes', () => {
  it('adds up the records of several DICOMDIRs and reports nothing when there is none', () => {
    const dicomdir = (path: string, records: number, instances: number) => ({
      path,
      size: 1,
      outcome: { kind: 'dicomdir' as const, dicomdir: { records, instances, studies: [] } },
    });
    expect(groupProbes('/x', [dicomdir('/x/b/DICOMDIR', 4, 2), dicomdir('/x/a/DICOMDIR', 3, 1)])).toEqual({
      root: '/x',
      studies: [],
      skipped: [],
      dicomdir_records: 7,
      dicomdir_instances: 3,
      dicomdir_files: ['/x/a/DICOMDIR', '/x/b/DICOMDIR'],
    });
    expect(groupProbes('/x', [])).toEqual({ root: '/x', studies: [], skipped: [] });
  });
});
