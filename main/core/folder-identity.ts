// Which folder a path names. A user may give one export folder as `Z:\Exports\Ana`, `z:\exports\ana`
// or, on Linux and macOS, through a symbolic link: all are the same folder, and everything that
// finds work by folder (upload journals, the upload lock, the watcher's export paths) must see one
// folder, else a rerun after a crash starts a second exam instead of resuming the first.
//
// `canonicalFolder` is the operating system's own name for the folder: links resolved and, on
// Windows, each name in the letter case stored on disk (realpath through the OS, not Node's
// JavaScript walk, which keeps the case it was given). `folderIdentity` is the string to compare or
// hash: the canonical path, folded to one letter case where file systems ignore case by default
// (Windows, macOS), so that two spellings of a folder that does not exist (yet) also agree. Shares
// and mapped drives on Windows: main/docs/windows.md.
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';

/** True where the default file systems compare names without regard to letter case. */
export function caseInsensitivePlatform(platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'win32' || platform === 'darwin';
}

/**
 * The operating system's name for the folder at `path`: absolute, links resolved, the case stored
 * on disk. A path that does not exist (a share not mounted yet) is only made absolute.
 */
export function canonicalFolder(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync.native(absolute);
  } catch {
    return absolute;
  }
}

/** The string that identifies the folder at `path` (see the file comment): equal for every way of naming it. */
export function folderIdentity(path: string, platform: NodeJS.Platform = process.platform): string {
  const canonical = canonicalFolder(path);
  return caseInsensitivePlatform(platform) ? canonical.toUpperCase() : canonical;
}

/** Whether two paths name the same folder. */
export function sameFolder(a: string, b: string): boolean {
  return a === b || folderIdentity(a) === folderIdentity(b);
}
