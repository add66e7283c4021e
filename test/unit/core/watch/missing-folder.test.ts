// A watched folder missing at start-up (a network share mounted later) is watched within one poll
// interval of appearing, and its exports are found like any other's. Real DCMTK files.
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FolderWatcher } from '@main/core/watch';
import type { ExportReady } from '@main/core/watch';
import { folderConfig, record, smallSeries, tempDir, waitFor } from '@support/harness/watch-harness';

const { dir, cleanup } = tempDir('sb-missing-folder-');
afterAll(cleanup);

describe('a watched folder missing at start-up', () => {
  it('is watched within one poll interval of appearing, and its exports are reported', async () => {
    const pollMs = 400;
    const share = join(dir, 'share-not-mounted-yet');
    const w = new FolderWatcher(folderConfig(share, { settle_seconds: 0.5 }), { pollIntervalMs: pollMs });
    const errors = record<Error>(w, 'error');
    const appeared = record<{ folderId: string }>(w, 'folder:appeared');
    const ready = record<ExportReady>(w, 'export:ready');
    try {
      await w.start(); // does not wait for the folder, nor fail
      expect(errors.map((e) => e.value.message)).toEqual([expect.stringContaining('not there yet')]);

      // The share is mounted: the folder appears, with an export already in it.
      const staged = join(dir, 'staged');
      const series = await smallSeries(join(staged, 'CBCT_1'), 3);
      await rename(staged, share);
      const at = Date.now();
      await waitFor(() => appeared.length === 1, 5000, 'the folder to be watched');
      // One poll interval, plus the time to start watching it (generous on a shared machine).
      expect((appeared[0]?.at ?? Infinity) - at).toBeLessThanOrEqual(pollMs + 600);
      await waitFor(() => ready.length === 1, 10_000, 'the export in it');
      expect(ready[0]?.value.studies[0]).toMatchObject({ study_uid: series.studyUid, files: 3 });
    } finally {
      await w.close();
    }
  });
});
