import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FolderWatcher } from '@main/core/watch';
import type { ExportReady, ExportWaiting } from '@main/core/watch';
import { writeDicomdir, writeTruncated } from '@fixtures/dicom/generate';
import {
  copySlowly,
  folderConfig,
  record,
  sleep,
  smallSeries,
  tempDir,
  waitFor,
  writeInChunks,
} from '@support/harness/watch-harness';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup(): { watched: string; staging: string } {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return { watched: join(t.dir, 'watched'), staging: join(t.dir, 'staging') };
}

async function startWatcher(
  watched: string,
  overrides: Parameters<typeof folderConfig>[1] = {},
  pollIntervalMs?: number,
): Promise<FolderWatcher> {
  await mkdir(watched, { recursive: true });
  const w = new FolderWatcher(folderConfig(watched, overrides), pollIntervalMs === undefined ? {} : { pollIntervalMs });
  cleanups.push(() => w.close());
  return w;
}

const fileCount = (r: ExportReady): number => r.studies.reduce((n, s) => n + s.files, 0);

describe('FolderWatcher', () => {
  it('finds exports already present at start-up, in sub-folders and loose in the watched folder', async () => {
    const { watched } = setup();
    const a = await smallSeries(join(watched, 'EXPORT_A'), 4);
    const loose = await smallSeries(watched, 2);
    const w = await startWatcher(watched, { settle_seconds: 0.5 });
    const ready = record<ExportReady>(w, 'export:ready');
    await w.start();
    await waitFor(() => ready.length >= 2, 8000, 'two ready exports');
    const byPath = new Map(ready.map((r) => [r.value.exportPath, r.value]));
    expect(byPath.get(join(watched, 'EXPORT_A'))?.studies.map((s) => [s.study_uid, s.files])).toEqual([
      [a.studyUid, 4],
    ]);
    expect(byPath.get(watched)?.studies.map((s) => [s.study_uid, s.files])).toEqual([[loose.studyUid, 2]]);
    expect(ready.every((r) => r.value.revision === 1 && r.value.folderId === 'f1')).toBe(true);
  });

  it('reports a slowly written export once, only after the writer has finished', async () => {
    const { watched, staging } = setup();
    const series = await smallSeries(staging, 9);
    const w = await startWatcher(watched);
    const ready = record<ExportReady>(w, 'export:ready');
    const changed = record<ExportReady>(w, 'export:changed');
    await w.start();
    const dest = join(watched, 'SLOW_EXPORT');
    const paths = series.files.map((f) => f.path);
    // Eight slices 0.8 s apart (each gap shorter than the 1.5 s settle period)…
    await copySlowly(paths.slice(0, 8), dest, 800);
    // …then the last one grows in five chunks over 3.2 s.
    await writeInChunks(paths[8] as string, join(dest, 'IM000009.dcm'), 5, 800);
    const writerDone = Date.now();
    expect(ready).toHaveLength(0);
    await waitFor(() => ready.length === 1, 6000, 'the export to be ready');
    expect((ready[0] as { at: number }).at).toBeGreaterThanOrEqual(writerDone + 1500);
    expect(fileCount((ready[0] as { value: ExportReady }).value)).toBe(9);
    await sleep(1500);
    expect(ready).toHaveLength(1);
    expect(changed).toHaveLength(0);
  });

  it('holds back an export with a truncated slice until the slice is complete', async () => {
    const { watched, staging } = setup();
    const series = await smallSeries(staging, 4);
    const dest = join(watched, 'CUT');
    await mkdir(dest, { recursive: true });
    for (const f of series.files.slice(0, 3)) await copyFile(f.path, join(dest, `${f.sopInstanceUid}.dcm`));
    const last = series.files[3] as { path: string; size: number };
    // Cut inside the Pixel Data: the header reads, the image does not.
    await writeTruncated(last.path, join(dest, 'last.dcm'), last.size - 700);
    const w = await startWatcher(watched, { settle_seconds: 0.5 });
    const ready = record<ExportReady>(w, 'export:ready');
    const waiting = record<ExportWaiting>(w, 'export:waiting');
    await w.start();
    await waitFor(() => waiting.length === 1, 6000, 'the export to be reported as waiting');
    expect((waiting[0] as { value: ExportWaiting }).value.reasons).toEqual([
      { kind: 'pixel_data_incomplete', path: join(dest, 'last.dcm') },
    ]);
    await sleep(2000);
    expect(ready).toHaveLength(0);
    await writeFile(join(dest, 'last.dcm'), await readFile(last.path));
    await waitFor(() => ready.length === 1, 6000, 'the completed export');
    expect(fileCount((ready[0] as { value: ExportReady }).value)).toBe(4);
  });

  it('holds back an export with fewer images than its DICOMDIR lists', async () => {
    const { watched, staging } = setup();
    const series = await smallSeries(join(staging, 'IMG'), 5, {
      fileName: (i) => `IMG${String(i + 1).padStart(5, '0')}`,
    });
    await writeDicomdir(
      staging,
      series.files.map((f) => f.path),
    );
    const dest = join(watched, 'CD');
    await mkdir(join(dest, 'IMG'), { recursive: true });
    await copyFile(join(staging, 'DICOMDIR'), join(dest, 'DICOMDIR'));
    for (const f of series.files.slice(0, 3))
      await copyFile(f.path, join(dest, 'IMG', f.path.slice(f.path.lastIndexOf('/') + 1)));
    const w = await startWatcher(watched, { settle_seconds: 0.5 });
    const ready = record<ExportReady>(w, 'export:ready');
    const waiting = record<ExportWaiting>(w, 'export:waiting');
    await w.start();
    await waitFor(() => waiting.length === 1, 6000, 'the export to be reported as waiting');
    expect((waiting[0] as { value: ExportWaiting }).value.reasons).toEqual([
      { kind: 'fewer_files_than_dicomdir', study_uid: series.studyUid, files: 3, expected: 5 },
    ]);
    for (const f of series.files.slice(3))
      await copyFile(f.path, join(dest, 'IMG', f.path.slice(f.path.lastIndexOf('/') + 1)));
    await waitFor(() => ready.length === 1, 6000, 'the completed export');
    expect(fileCount((ready[0] as { value: ExportReady }).value)).toBe(5);
  });

  it('works by polling, ignores its own marker files, and reports later additions as a change', async () => {
    const { watched, staging } = setup();
    const series = await smallSeries(staging, 4);
    const w = await startWatcher(watched, { settle_seconds: 0.5, polling: true }, 250);
    const ready = record<ExportReady>(w, 'export:ready');
    const changed = record<ExportReady>(w, 'export:changed');
    await w.start();
    const dest = join(watched, 'SHARE_EXPORT');
    await mkdir(dest);
    for (const f of series.files.slice(0, 3)) await copyFile(f.path, join(dest, `s${f.sopInstanceUid}.dcm`));
    await waitFor(() => ready.length === 1, 6000, 'the export to be ready');
    expect(fileCount((ready[0] as { value: ExportReady }).value)).toBe(3);
    await writeFile(join(dest, '.scanbridge-claim-0123456789abcdef-1'), '{}');
    await sleep(1500);
    expect(changed).toHaveLength(0);
    const fourth = series.files[3] as { path: string; sopInstanceUid: string };
    await copyFile(fourth.path, join(dest, `s${fourth.sopInstanceUid}.dcm`));
    await waitFor(() => changed.length === 1, 6000, 'the change to be reported');
    const update = (changed[0] as { value: ExportReady }).value;
    expect(update.revision).toBe(2);
    expect(fileCount(update)).toBe(4);
    expect(update.skipped).toEqual([]);
    expect(ready).toHaveLength(1);
  });
});
