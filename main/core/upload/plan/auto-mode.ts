// `--mode auto`: files or zip. The thresholds come from test/bench/upload.ts ("files vs zip";
// figures in test/bench/RESULTS.md). On loopback, over seven runs, zip took 0.80–1.09 × the time of
// files mode for 2000 × 8 KiB (faster in five), 0.59–1.13 × for 1000 × 32 KiB, 0.93–1.86 × for
// 600 × 64 KiB and 1.5–2.1 × for 300 × 256 KiB: past a few tens of KiB per file the service's
// unpacking costs more than the requests it saves. Loopback hides the round trip every request
// pays over a real connection (2000 files × 50 ms ÷ 6 in parallel ≈ 17 s), which only moves the
// balance toward zip for small files; so the line sits at 32 KiB.
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
