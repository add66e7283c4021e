// Completeness before an exam is created: for a CBCT, one missing or damaged slice is a broken
// volume a radiologist may not notice, so a study is sent only when every one of its files reads
// whole. Files that are simply not DICOM (Thumbs.db, a README) are not part of any study and stay
// "skipped"; a file that cannot be read is never called "not DICOM", because it may well be a slice.
import { closeSync, openSync } from 'node:fs';
import { relative, sep } from 'node:path';
import type { ScanResult, Skipped, Study } from '../../dicom';
import type { IncompleteReason } from '../../../../preload/contract';

export type IncompleteFile = {
  path: string;
  /** Relative to the folder scanned, with `/` separators (what the messages show). */
  name: string;
  reason: IncompleteReason;
};

const errnoOf = (path: string): string | null => {
  try {
    closeSync(openSync(path, 'r'));
    return null;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? 'EIO';
  }
};

/**
 * Files of the scanned folder that cannot be read whole: slices cut short (the pixel data runs
 * past the end: a copy still under way, or interrupted), files or folders that cannot be opened,
 * and files that start as DICOM but break off or are damaged before their header ends.
 */
export function incompleteFiles(scan: ScanResult): IncompleteFile[] {
  const name = (path: string): string => relative(scan.root, path).split(sep).join('/') || '.';
  const out: IncompleteFile[] = [];
  for (const study of scan.studies) {
    for (const series of study.series) {
      for (const f of series.file_list)
        if (!f.complete) out.push({ path: f.path, name: name(f.path), reason: 'cut_short' });
    }
  }
  for (const s of scan.skipped) {
    if (s.reason === 'not_dicom') continue;
    let reason: IncompleteReason = 'damaged';
    if (s.reason === 'unreadable') {
      const code = errnoOf(s.path);
      // EISDIR: a folder that could be opened but not listed.
      reason = code === 'EACCES' || code === 'EPERM' ? 'permission_denied' : 'unreadable';
    }
    out.push({ path: s.path, name: name(s.path), reason });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const REASON_TEXT: Record<IncompleteReason, string> = {
  cut_short: 'cut short (still being copied, or the copy was interrupted)',
  unreadable: 'cannot be read',
  permission_denied: 'cannot be read: permission denied',
  damaged: 'damaged or cut short before its header ends',
};

/** One line per file: `  name: why`, at most `max` lines (then how many more). */
export function describeIncomplete(files: readonly IncompleteFile[], escape: (s: string) => string, max = 20): string {
  const lines = files.slice(0, max).map((f) => `  ${escape(f.name)}: ${REASON_TEXT[f.reason]}`);
  if (files.length > max) lines.push(`  … and ${files.length - max} more`);
  return lines.join('\n');
}

/** The scan without the incomplete files (for an upload the user chose to send anyway). */
export function withoutIncomplete(scan: ScanResult, files: readonly IncompleteFile[]): ScanResult {
  const drop = new Set(files.map((f) => f.path));
  const studies = scan.studies
    .map((study) => {
      const series = study.series
        .map((s) => {
          const file_list = s.file_list.filter((f) => !drop.has(f.path));
          return { ...s, file_list, files: file_list.length, bytes: file_list.reduce((n, f) => n + f.size, 0) };
        })
        .filter((s) => s.files > 0);
      return {
        ...study,
        series,
        files: series.reduce((n, s) => n + s.files, 0),
        bytes: series.reduce((n, s) => n + s.bytes, 0),
      };
    })
    .filter((s) => s.files > 0);
  return { ...scan, studies, skipped: scan.skipped.filter((s) => !drop.has(s.path)) };
}

/**
 * The same for one study of an export (the app's inbox): its slices cut short, and the files
 * under its folder that could not be read or are damaged (they may be its missing slices), named
 * relative to the study's folder.
 */
export function studyIncompleteFiles(study: Study, skipped: readonly Skipped[]): IncompleteFile[] {
  const sub: ScanResult = {
    root: study.root,
    studies: [study],
    skipped: skipped.filter((s) => s.path === study.root || s.path.startsWith(study.root + sep)),
  };
  return incompleteFiles(sub);
}
