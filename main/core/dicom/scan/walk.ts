// Listing every file under an export folder. Symbolic links are followed (exports on shares are
// often linked in), but each real directory is entered once, so a link loop cannot trap the scan.
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export type WalkResult = {
  /** Regular files, sorted by path. */
  files: string[];
  /** Entries that could not be listed or resolved (permission denied, dangling links). */
  unreadable: string[];
};

/** Lists the files under `root` recursively. */
export async function walkFiles(root: string, signal?: AbortSignal): Promise<WalkResult> {
  const files: string[] = [];
  const unreadable: string[] = [];
  const seen = new Set<string>();
  const rootStat = await stat(root);
  seen.add(`${rootStat.dev}:${rootStat.ino}`);
  const pending: string[] = [root];
  while (pending.length > 0) {
    signal?.throwIfAborted();
    const dir = pending.pop() as string;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      unreadable.push(dir);
      continue;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isFile()) {
        files.push(path);
        continue;
      }
      if (entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice()) continue;
      // Directories, links, and entries whose type the file system does not report (some shares).
      try {
        const s = await stat(path);
        if (s.isFile()) files.push(path);
        else if (s.isDirectory()) {
          const id = `${s.dev}:${s.ino}`;
          if (!seen.has(id)) {
            seen.add(id);
            pending.push(path);
          }
        }
      } catch {
        unreadable.push(path);
      }
    }
  }
  files.sort(comparePaths);
  unreadable.sort(comparePaths);
  return { files, unreadable };
}

/** Code-point order: stable across locales, unlike localeCompare. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
