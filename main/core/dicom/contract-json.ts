// The JSON printed by `scanbridge scan --json` (CONTRACTS.md §2): the contract's fields plus a
// few harmless extras, but no per-file lists, so the output stays small for large exports.
import type { ScanResult, Study } from './types';

export type SeriesJson = { series_uid: string; modality: string; files: number; description: string; number: number | null; bytes: number };
export type StudyJson = Omit<Study, 'series'> & { series: SeriesJson[] };
export type ScanJson = Omit<ScanResult, 'studies'> & { studies: StudyJson[] };

/** The scan result without per-file lists, as printed by `scan --json`. */
export function scanResultToJson(result: ScanResult): ScanJson {
  return {
    ...result,
    studies: result.studies.map((s) => ({
      ...s,
      series: s.series.map(({ series_uid, modality, files, description, number, bytes }) => ({ series_uid, modality, files, description, number, bytes })),
    })),
  };
}
