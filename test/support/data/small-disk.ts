// A small real disk for tests of a full disk: a tmpfs of a few megabytes mounted on a fresh folder
// (tests run as root here and in CI), filled to the last byte on demand and emptied again. Each
// test gets its own mount point, so tests running in parallel never share one.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type SmallDisk = {
  /** The mount point. */
  dir: string;
  /** Writes a filler file until the disk refuses (ENOSPC). */
  fill(): void;
  /** Removes the filler: the disk has room again. */
  free(): void;
  /** Unmounts and removes the mount point. */
  dispose(): void;
};

export function mountSmallDisk(sizeMb: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'sb-small-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', dir]);
  const filler = join(dir, 'filler.bin');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      const block = Buffer.alloc(64 * 1024, 0x5a);
      try {
        for (let size = block.length; size >= 1;) {
          try {
            writeSync(fd, block, 0, size);
          } catch (e) {
            if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
            size = Math.floor(size / 2);
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    dispose() {
      try {
        execFileSync('umount', ['-l', dir]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
