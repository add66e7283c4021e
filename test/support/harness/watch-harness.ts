// Shared by the watcher's tests: temp folders, real DICOM series (DCMTK), slow writers and event capture.
import { mkdtempSync, rmSync } from 'node:fs';
import { copyFile, mkdir, open, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { EventEmitter } from 'node:events';
import { writeCtSeries } from '../../fixtures/dicom/generate';
import type { WrittenSeries } from '../../fixtures/dicom/generate';
import type { WatchFolderConfig } from '../../../main/core/watch';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A fresh temp folder, removed by the returned cleanup. */
export function tempDir(prefix = 'sb-watch-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A small real CT series (32×32 slices) written into `dir`. */
export function smallSeries(
  dir: string,
  slices: number,
  options: { studyUid?: string; seriesNumber?: number; fileName?: (i: number) => string } = {},
): Promise<WrittenSeries> {
  return writeCtSeries(dir, {
    slices,
    rows: 32,
    cols: 32,
    patientName: 'PRUEBA^ANA',
    patientId: 'T-1',
    studyDate: '20260302',
    ...options,
  });
}

export function folderConfig(path: string, overrides: Partial<WatchFolderConfig> = {}): WatchFolderConfig {
  return { id: 'f1', path, exam_type: 'from_dicom', mode: 'auto', settle_seconds: 1.5, polling: false, ...overrides };
}

/** Copies files into `destDir` one by one, `gapMs` apart, as a slow scanner export does. */
export async function copySlowly(files: readonly string[], destDir: string, gapMs: number): Promise<void> {
  await mkdir(destDir, { recursive: true });
  for (const f of files) {
    await copyFile(f, join(destDir, basename(f)));
    await sleep(gapMs);
  }
}

/** Writes `source` to `dest` in `chunks` appends, `gapMs` apart (a file growing while it is written). */
export async function writeInChunks(source: string, dest: string, chunks: number, gapMs: number): Promise<void> {
  const data = await readFile(source);
  const handle = await open(dest, 'w');
  try {
    const step = Math.ceil(data.length / chunks);
    for (let at = 0; at < data.length; at += step) {
      await handle.write(data.subarray(at, Math.min(data.length, at + step)));
      await handle.sync();
      if (at + step < data.length) await sleep(gapMs);
    }
  } finally {
    await handle.close();
  }
}

export type Recorded<T> = { at: number; value: T };

/** Records every emission of `event` with its time. */
export function record<T>(emitter: EventEmitter, event: string): Recorded<T>[] {
  const list: Recorded<T>[] = [];
  emitter.on(event, (value: T) => list.push({ at: Date.now(), value }));
  return list;
}

/** Polls `predicate` until it holds or `timeoutMs` passes (then throws with `what`). */
export async function waitFor(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}
