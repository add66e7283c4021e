// Scanning an export folder: list its files, classify each on the worker pool, group the
// verdicts into studies.
import { constants } from 'node:fs';
import { access, opendir, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { groupProbes } from './group';
import { probeFiles } from './scan-pool';
import type { FileProbe, ScanOptions, ScanResult } from '../header/dicom-types';
import { walkFiles } from './walk';

/** Thrown when the folder to scan does not exist or is not a folder. */
export class ScanFolderError extends Error {
  override name = 'ScanFolderError';
  constructor(
    /** What is wrong with the folder (a command says it in its own language from this). */
    readonly kind: 'not_found' | 'not_folder' | 'unreadable',
    readonly path: string,
    /** The system's error code, for a folder that cannot be read. */
    readonly code?: string,
  ) {
    const denied = code === 'EACCES' || code === 'EPERM';
    super(
      kind === 'not_found'
        ? `folder not found: ${path}`
        : kind === 'not_folder'
          ? `not a folder: ${path}`
          : `cannot read folder: ${path} (${denied ? 'permission denied' : code})`,
    );
  }
}

/** Scans `dir` recursively and groups what it finds into studies; unreadable files are listed as skipped. */
export async function scanFolder(dir: string, options: ScanOptions = {}): Promise<ScanResult> {
  const root = resolve(dir);
  let isDir = false;
  try {
    isDir = (await stat(root)).isDirectory();
  } catch {
    throw new ScanFolderError('not_found', root);
  }
  if (!isDir) throw new ScanFolderError('not_folder', root);
  // A root that cannot be listed is an error, not "0 studies": the export may be full of slices.
  try {
    await access(root, constants.R_OK | constants.X_OK);
    await opendir(root).then((d) => d.close());
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    throw new ScanFolderError('unreadable', root, code);
  }
  const walked = await walkFiles(root, options.signal);
  const probes = await probeFiles(walked.files, options);
  const unreadable: FileProbe[] = walked.unreadable.map((path) => ({
    path,
    size: 0,
    outcome: { kind: 'skipped', reason: 'unreadable' },
  }));
  return groupProbes(root, [...probes, ...unreadable]);
}
