// Patient data must never be readable by other users of the computer: every folder ScanBridge
// makes is 0700 and every file 0600 from the moment it exists (no window in which a journal with a
// patient's name sits world-readable), and folders an older version made with the process umask
// are tightened when a command or the app starts. Windows has no mode bits (per-user ACLs on the
// profile folders do this job there), so these calls are harmless no-ops in effect.
import { chmodSync, type Dirent, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` (and missing parents) as private folders; an existing one is tightened. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tightenOne(dir, PRIVATE_DIR_MODE);
}

function tightenOne(path: string, mode: number): void {
  try {
    const s = lstatSync(path);
    if ((s.mode & 0o777 & ~mode) !== 0) chmodSync(path, s.mode & 0o777 & mode);
  } catch {
    // Gone meanwhile, or not ours (a folder given by the user): nothing to tighten.
  }
}

/** Start-up of the app or a command: its own folders exist, private, with nothing inside readable by others. */
export function securePrivateFolders(dirs: readonly string[]): void {
  for (const dir of dirs) {
    ensurePrivateDir(dir);
    tightenPrivateTree(dir);
  }
}

/**
 * Removes group and other permissions from `root` and everything under it (symbolic links are not
 * followed: they may point at the user's own files). Returns how many entries were changed.
 */
export function tightenPrivateTree(root: string): number {
  let changed = 0;
  const visit = (path: string, isDir: boolean): void => {
    try {
      const s = lstatSync(path);
      if (s.isSymbolicLink()) return;
      // Keep the owner's bits as they are (a file made executable stays so); drop the rest.
      if ((s.mode & 0o077) !== 0) {
        chmodSync(path, s.mode & 0o700);
        changed++;
      }
    } catch {
      return;
    }
    if (!isDir) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(path, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isSymbolicLink()) continue;
      visit(join(path, e.name), e.isDirectory());
    }
  };
  visit(root, true);
  return changed;
}
