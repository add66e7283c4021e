// The JSON printed by `scanbridge scan --json` (CONTRACTS.md §2): the contract's fields plus a
// few harmless extras, but no per-file lists, so the output stays small for large exports.
import type { ScanResult, Skipped, Study } from '../header/dicom-types';
import { comparePaths } from './walk';

export type SeriesJson = {
  series_uid: string;
  modality: string;
  files: number;
  description: string;
  number: number | null;
  bytes: number;
};
export type StudyJson = Omit<Study, 'series'> & { series: SeriesJson[] };
/** A file `scan --json` leaves out of every study: the reader's reasons, or the DICOMDIR media index. */
export type SkippedJson = Skipped | { path: string; reason: 'dicomdir' };
export type ScanJson = Omit<ScanResult, 'studies' | 'skipped' | 'dicomdir_files'> & {
  studies: StudyJson[];
  skipped: SkippedJson[];
};

/**
 * The scan result without per-file lists, as printed by `scan --json`. Every file under the folder
 * is accounted for: in a study, or in `skipped` (the DICOMDIR index too, with reason `dicomdir`).
 */
export function scanResultToJson(result: ScanResult): ScanJson {
  const { dicomdir_files: dicomdirFiles = [], ...rest } = result;
  const skipped: SkippedJson[] = [
    ...result.skipped,
    ...dicomdirFiles.map((path) => ({ path, reason: 'dicomdir' as const })),
  ];
  return {
    ...rest,
    skipped: skipped.sort((a, b) => comparePaths(a.path, b.path)),
    studies: result.studies.map((s) => ({
      ...s,
      series: s.series.map(({ series_uid, modality, files, description, number, bytes }) => ({
        series_uid,
        modality,
        files,
        description,
        number,
        bytes,
      })),
    })),
  };
}
