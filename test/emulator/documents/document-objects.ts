import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { App } from '../core/app';

/** Stores generated or uploaded document bytes under the data folder; a crash never leaves a torn file. */
export function writeObject(app: App, key: string, bytes: Uint8Array): void {
  const path = app.store.objectPath(key);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, path);
}

export function readObject(app: App, key: string): Buffer {
  return readFileSync(app.store.objectPath(key));
}

export function removeObject(app: App, key: string): void {
  rmSync(app.store.objectPath(key), { force: true });
}
