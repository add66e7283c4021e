// Scanner exports for the end-to-end tests, made with the DCMTK fixture generators. Each export is
// written in a staging folder and then moved into the watch folder in one rename, so the watcher
// sees it appear whole (partial exports have their own tests in the core).
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCbctExport, type CbctExport, type CbctExportOptions } from '../../fixtures/dicom/generate';

/** A fresh empty folder for the app to watch. */
export function makeWatchFolder(): string {
  return mkdtempSync(join(tmpdir(), 'sb-e2e-watch-'));
}

/** Writes a CBCT export and moves it into `watchDir/<name>`; returns what was written (paths under its final place). */
export async function dropCbctExport(
  watchDir: string,
  name: string,
  options: CbctExportOptions = {},
): Promise<CbctExport> {
  const staging = mkdtempSync(join(tmpdir(), 'sb-e2e-staging-'));
  try {
    const written = await writeCbctExport(join(staging, name), options);
    mkdirSync(watchDir, { recursive: true });
    const target = join(watchDir, name);
    renameSync(written.root, target);
    return { ...written, root: target };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
