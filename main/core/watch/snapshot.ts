// The observable state of an export folder: every file's size and modification time. Two equal
// snapshots taken a settle period apart are the "quiet and size-stable" half of completeness.
import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';

/** Files the watcher itself writes into export folders (claims, done markers). */
export const MARKER_PREFIX = '.scanbridge-';

/** True for the watcher's own marker files, which never count as part of an export. */
export function isMarkerFile(path: string): boolean {
  return basename(path).startsWith(MARKER_PREFIX);
}

export type FileState = { size: number; mtimeMs: number };

export type Snapshot = {
  files: Map<string, FileState>;
  /** A digest of every path, size and mtime: equal keys mean nothing observable changed. */
  key: string;
};

/**
 * Stats every file under `dir` (only its direct files when `recursive` is false); null when the
 * folder is gone. Files that vanish or cannot be read while listing are left out.
 */
export async function takeSnapshot(dir: string, recursive: boolean): Promise<Snapshot | null> {
  const files = new Map<string, FileState>();
  const seen = new Set<string>();
  const pending = [dir];
  let first = true;
  while (pending.length > 0) {
    const current = pending.pop() as string;
    let entries: Dirent[];
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch {
      if (first) return null;
      continue;
    }
    first = false;
    for (const entry of entries) {
      if (entry.name.startsWith(MARKER_PREFIX)) continue;
      const path = join(current, entry.name);
      try {
        const s = await stat(path);
        if (s.isFile()) files.set(path, { size: s.size, mtimeMs: s.mtimeMs });
        else if (s.isDirectory() && recursive) {
          // Each real directory once, so a link loop cannot trap the walk.
          const id = `${s.dev}:${s.ino}`;
          if (!seen.has(id)) {
            seen.add(id);
            pending.push(path);
          }
        }
      } catch {
        // Removed between listing and stat: the next snapshot tells.
      }
    }
  }
  const hash = createHash('sha256');
  for (const path of [...files.keys()].sort()) {
    const f = files.get(path) as FileState;
    hash.update(`${path}\0${f.size}\0${f.mtimeMs}\n`);
  }
  return { files, key: hash.digest('hex') };
}
