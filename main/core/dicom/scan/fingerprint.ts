// The identity of a study's file set, independent of where the share is mounted: the export
// watcher and the upload ledger compare it to tell "same export again" from "new or changed files".
import { createHash } from 'node:crypto';
import { comparePaths } from './walk';
import type { Study } from '../header/dicom-types';

/** sha256 (hex) over the sorted relative paths and sizes of a set of files. */
export function fileSetFingerprint(files: readonly { relative_path: string; size: number }[]): string {
  const lines = files.map((f) => `${f.relative_path}\0${f.size}\n`).sort(comparePaths);
  const hash = createHash('sha256');
  for (const line of lines) hash.update(line, 'utf8');
  return hash.digest('hex');
}

/** The file-set fingerprint of every file of a study. */
export function studyFingerprint(study: Study): string {
  return fileSetFingerprint(study.series.flatMap((s) => s.file_list));
}
