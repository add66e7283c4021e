import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
  existsSync,
  rmSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { State } from './state';

/**
 * Persistence in the `--data` folder: `state.json` holds every record and is replaced atomically
 * (write to a temporary file, fsync, rename, fsync the folder), so a crash leaves either the old or
 * the new state, never a torn one. Uploaded bytes live as files under `objects/`.
 */
export class Store {
  readonly objectsDir: string;
  private readonly statePath: string;

  constructor(
    readonly dataDir: string,
    public state: State,
  ) {
    this.objectsDir = join(dataDir, 'objects');
    this.statePath = join(dataDir, 'state.json');
  }

  /** Loads the state of `dataDir`, or builds a fresh one with `init` when there is none. */
  static open(dataDir: string, init: () => State): Store {
    mkdirSync(join(dataDir, 'objects'), { recursive: true });
    const path = join(dataDir, 'state.json');
    if (existsSync(path)) {
      const state = JSON.parse(readFileSync(path, 'utf8')) as State;
      const store = new Store(dataDir, state);
      rmSync(`${path}.tmp`, { force: true });
      return store;
    }
    const store = new Store(dataDir, init());
    store.save();
    return store;
  }

  /** Writes the whole state durably. */
  save(): void {
    const tmp = `${this.statePath}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, JSON.stringify(this.state));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.statePath);
    fsyncFolder(dirname(this.statePath));
  }

  /** Absolute path of a stored object. */
  objectPath(key: string): string {
    return join(this.objectsDir, key);
  }
}

/**
 * fsyncs a folder so that the rename in it survives a power cut. Windows refuses to open or fsync
 * a folder (EPERM, or EISDIR): there NTFS journals the rename itself, and the refusal is no error.
 */
function fsyncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (process.platform !== 'win32' || (code !== 'EPERM' && code !== 'EISDIR' && code !== 'EACCES')) throw e;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
