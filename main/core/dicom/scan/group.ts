// Turning per-file verdicts into studies and series (by Study/Series Instance UID), mesh studies
// (by folder) and the list of skipped files, with the warnings the inbox shows.
import { createHash } from 'node:crypto';
import { basename, dirname, relative, sep } from 'node:path';
import { localToday } from '../header/dates';
import { suggestExamType } from '../header/exam-type';
import type {
  DicomHeader,
  FileProbe,
  MeshFormat,
  ScanResult,
  Series,
  Skipped,
  Study,
  StudyFile,
  StudyWarning,
} from '../header/dicom-types';
import { comparePaths } from './walk';

type DicomFile = { path: string; size: number; header: DicomHeader };
type MeshFile = { path: string; size: number; format: MeshFormat };

/** The deepest folder containing every path. */
export function commonFolder(paths: readonly string[]): string {
  const first = paths[0];
  if (first === undefined) return '';
  let parts = dirname(first).split(sep);
  for (const p of paths) {
    const other = dirname(p).split(sep);
    let i = 0;
    while (i < parts.length && i < other.length && parts[i] === other[i]) i++;
    parts = parts.slice(0, i);
  }
  return parts.join(sep) || sep;
}

const toPosix = (p: string): string => (sep === '/' ? p : p.split(sep).join('/'));

function studyFile(
  root: string,
  f: DicomFile | MeshFile,
  sop: string,
  instance: number | null,
  complete: boolean,
): StudyFile {
  return {
    path: f.path,
    relative_path: toPosix(relative(root, f.path)),
    size: f.size,
    sop_instance_uid: sop,
    instance_number: instance,
    complete,
  };
}

function sortFiles(list: StudyFile[]): StudyFile[] {
  return list.sort(
    (a, b) => (a.instance_number ?? Infinity) - (b.instance_number ?? Infinity) || comparePaths(a.path, b.path),
  );
}

function mostCommon(values: string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = '';
  let bestCount = 0;
  for (const [v, n] of counts) if (n > bestCount) [best, bestCount] = [v, n];
  return best;
}

function dicomStudy(studyUid: string, files: DicomFile[], expected: number | undefined, today: string): Study {
  files.sort((a, b) => comparePaths(a.path, b.path));
  const root = commonFolder(files.map((f) => f.path));
  const first = (files[0] as DicomFile).header;
  const bySeries = new Map<string, DicomFile[]>();
  for (const f of files) {
    const list = bySeries.get(f.header.series_uid) ?? [];
    list.push(f);
    bySeries.set(f.header.series_uid, list);
  }
  const series: Series[] = [...bySeries].map(([uid, list]) => {
    const h = (list[0] as DicomFile).header;
    return {
      series_uid: uid,
      modality: h.modality,
      files: list.length,
      description: h.series_description,
      number: h.series_number,
      bytes: list.reduce((n, f) => n + f.size, 0),
      file_list: sortFiles(
        list.map((f) =>
          studyFile(root, f, f.header.sop_instance_uid, f.header.instance_number, f.header.pixel_data_complete),
        ),
      ),
    };
  });
  series.sort((a, b) => (a.number ?? Infinity) - (b.number ?? Infinity) || comparePaths(a.series_uid, b.series_uid));

  // The study's modality is the one most of its files have (a CBCT export may carry a report or
  // a secondary capture next to hundreds of CT slices).
  const modality = mostCommon(files.map((f) => f.header.modality));
  const suggestion = suggestExamType(modality);
  const warnings = new Set<StudyWarning>();
  if (first.patient_id === '') warnings.add('missing_patient_id');
  if (first.patient_name_raw === '') warnings.add('missing_patient_name');
  if (first.birth_date !== null && first.birth_date > today) warnings.add('future_birth_date');
  if (first.birth_date !== null && first.study_date !== null && first.birth_date > first.study_date)
    warnings.add('birth_after_study');
  if (new Set(files.map((f) => f.header.patient_name_raw)).size > 1) warnings.add('multiple_patient_names');
  if (new Set(files.map((f) => f.header.patient_id)).size > 1) warnings.add('multiple_patient_ids');
  if (!suggestion.known) warnings.add('unknown_modality');
  const sops = files.map((f) => f.header.sop_instance_uid).filter((s) => s !== '');
  if (new Set(sops).size < sops.length) warnings.add('duplicate_instances');
  if (files.some((f) => f.header.warnings.includes('charset_fallback'))) warnings.add('charset_fallback');
  if (files.some((f) => !f.header.pixel_data_complete)) warnings.add('incomplete_files');
  if (expected !== undefined && files.length < expected) warnings.add('fewer_files_than_dicomdir');

  const study: Study = {
    study_uid: studyUid,
    patient_name: first.patient_name,
    patient_name_raw: first.patient_name_raw,
    patient_id: first.patient_id,
    birth_date: first.birth_date,
    study_date: first.study_date,
    modality,
    description: first.study_description || (series[0]?.description ?? ''),
    suggested_exam_type: suggestion.exam_type,
    series,
    files: files.length,
    bytes: files.reduce((n, f) => n + f.size, 0),
    root,
    character_set: first.character_set,
    manufacturer: first.manufacturer,
    model: first.model,
    warnings: [...warnings],
  };
  if (expected !== undefined) study.expected_files = expected;
  return study;
}

function meshStudy(folder: string, files: MeshFile[]): Study {
  const studyUid = `mesh:${createHash('sha1').update(folder).digest('hex')}`;
  const fileList = sortFiles(files.map((f) => studyFile(folder, f, '', null, true)));
  const bytes = files.reduce((n, f) => n + f.size, 0);
  return {
    study_uid: studyUid,
    patient_name: '',
    patient_name_raw: '',
    patient_id: '',
    birth_date: null,
    study_date: null,
    modality: 'MESH',
    description: basename(folder),
    suggested_exam_type: 'mesh',
    series: [
      {
        series_uid: `${studyUid}:1`,
        modality: 'MESH',
        files: files.length,
        description: '',
        number: null,
        bytes,
        file_list: fileList,
      },
    ],
    files: files.length,
    bytes,
    root: folder,
    character_set: '',
    manufacturer: '',
    model: '',
    warnings: ['missing_patient_id', 'missing_patient_name'],
  };
}

/** Groups the verdicts of a scan of `root` into studies, series and skipped files. */
export function groupProbes(root: string, probes: readonly FileProbe[], now: Date = new Date()): ScanResult {
  const skipped: Skipped[] = [];
  const studies = new Map<string, DicomFile[]>();
  const meshes = new Map<string, MeshFile[]>();
  const expected = new Map<string, number>();
  let dicomdirRecords: number | undefined;
  let dicomdirInstances: number | undefined;
  const dicomdirFiles: string[] = [];
  for (const p of probes) {
    const o = p.outcome;
    switch (o.kind) {
      case 'skipped':
        skipped.push({ path: p.path, reason: o.reason, size: p.size });
        break;
      case 'dicom': {
        const list = studies.get(o.header.study_uid) ?? [];
        list.push({ path: p.path, size: p.size, header: o.header });
        studies.set(o.header.study_uid, list);
        break;
      }
      case 'mesh': {
        const folder = dirname(p.path);
        const list = meshes.get(folder) ?? [];
        list.push({ path: p.path, size: p.size, format: o.format });
        meshes.set(folder, list);
        break;
      }
      case 'dicomdir':
        dicomdirRecords = (dicomdirRecords ?? 0) + o.dicomdir.records;
        dicomdirInstances = (dicomdirInstances ?? 0) + o.dicomdir.instances;
        dicomdirFiles.push(p.path);
        for (const s of o.dicomdir.studies) expected.set(s.study_uid, (expected.get(s.study_uid) ?? 0) + s.instances);
        break;
    }
  }
  const today = localToday(now);
  const result: ScanResult = {
    root,
    studies: [
      ...[...studies].map(([uid, files]) => dicomStudy(uid, files, expected.get(uid), today)),
      ...[...meshes].map(([folder, files]) => meshStudy(folder, files)),
    ].sort((a, b) => comparePaths(a.root, b.root) || comparePaths(a.study_uid, b.study_uid)),
    skipped: skipped.sort((a, b) => comparePaths(a.path, b.path)),
  };
  if (dicomdirRecords !== undefined) result.dicomdir_records = dicomdirRecords;
  if (dicomdirInstances !== undefined) result.dicomdir_instances = dicomdirInstances;
  if (dicomdirFiles.length > 0) result.dicomdir_files = dicomdirFiles.sort(comparePaths);
  return result;
}
