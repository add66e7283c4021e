// `--mode auto`: files or zip. The thresholds come from test/bench/upload.ts ("files vs zip";
// results in test/bench/RESULTS.md, "Upload engine"): zip wins only for many small files, and
// past a few tens of KiB per file the service's unpacking costs more than the requests it saves.
// Loopback hides the round trip every request pays over a real connection, which only moves the
// balance toward zip for small files; so the line sits a little above where loopback puts it.
import { MAX_ZIP_BYTES } from './limits';
import type { UploadMode } from '../ports/ports';

/** Zip pays off only when per-file request overhead dominates: many files, small on average. */
export const AUTO_ZIP_MIN_FILES = 200;
export const AUTO_ZIP_MAX_MEAN_FILE_BYTES = 32 * 1024;
/**
 * A ZIP is one PUT: an interruption re-sends all of it, so auto mode keeps it small enough that a
 * retry is cheap, far under the service's 1 GB limit.
 */
export const AUTO_ZIP_MAX_BYTES = 64 * 1024 * 1024;

/** The mode `auto` picks for these files. */
export function chooseMode(files: readonly { size: number }[], zipSize: number): UploadMode {
  if (files.length < AUTO_ZIP_MIN_FILES) return 'files';
  if (zipSize > Math.min(AUTO_ZIP_MAX_BYTES, MAX_ZIP_BYTES)) return 'files';
  const mean = files.reduce((s, f) => s + f.size, 0) / files.length;
  return mean <= AUTO_ZIP_MAX_MEAN_FILE_BYTES ? 'zip' : 'files';
}
