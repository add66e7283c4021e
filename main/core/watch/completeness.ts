// The "every file reads whole" half of completeness, judged on a scan of a quiet export.
import type { ScanResult } from '../dicom';
import type { Snapshot } from './snapshot';
import { isMarkerFile } from './snapshot';
import type { IncompleteReason } from './watch-types';
import { encapsulationComplete } from './whole-file';

const TAIL_CHECKS_AT_ONCE = 8;

async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/**
 * Why the scanned export is not whole yet; empty when it is. `snapshot` is the state the export
 * had when it was judged quiet: a scanned size that differs from it means a file changed meanwhile.
 */
export async function incompleteReasons(scan: ScanResult, snapshot: Snapshot): Promise<IncompleteReason[]> {
  const reasons: IncompleteReason[] = [];
  for (const s of scan.skipped) {
    if (isMarkerFile(s.path)) continue;
    if (s.reason === 'truncated') reasons.push({ kind: 'truncated_file', path: s.path });
    // A writer may hold the file open exclusively (Windows shares do): not readable means not done.
    else if (s.reason === 'unreadable') reasons.push({ kind: 'unreadable_file', path: s.path });
  }
  let changed = false;
  const dicomFiles: string[] = [];
  let dicomFileCount = 0;
  for (const study of scan.studies) {
    const files = study.series.flatMap((s) => s.file_list);
    for (const f of files) {
      if (!f.complete) reasons.push({ kind: 'pixel_data_incomplete', path: f.path });
      if (snapshot.files.get(f.path)?.size !== f.size) changed = true;
      if (f.sop_instance_uid !== '') dicomFiles.push(f.path);
    }
    if (study.modality !== 'MESH') dicomFileCount += files.length;
    if (study.expected_files !== undefined && study.files < study.expected_files) {
      reasons.push({
        kind: 'fewer_files_than_dicomdir',
        study_uid: study.study_uid,
        files: study.files,
        expected: study.expected_files,
      });
    }
  }
  // A DICOMDIR may list a study none of whose files has arrived yet.
  if (
    scan.dicomdir_instances !== undefined &&
    dicomFileCount < scan.dicomdir_instances &&
    !reasons.some((r) => r.kind === 'fewer_files_than_dicomdir')
  ) {
    reasons.push({
      kind: 'fewer_files_than_dicomdir',
      study_uid: '',
      files: dicomFileCount,
      expected: scan.dicomdir_instances,
    });
  }
  const tails = await mapLimited(dicomFiles, TAIL_CHECKS_AT_ONCE, encapsulationComplete);
  tails.forEach((whole, i) => {
    if (!whole) reasons.push({ kind: 'pixel_data_incomplete', path: dicomFiles[i] as string });
  });
  if (changed) reasons.push({ kind: 'changed_while_checking' });
  return reasons;
}
