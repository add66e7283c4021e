// The DICOM listener on a disk that fills up (a real 4 MB tmpfs): the sender is refused with
// "out of resources" (A700) and keeps its objects, nothing half-written is kept, the listener says
// which folder is full and keeps listening, and once there is room again the resend is stored
// and the study handed on.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type ReceiveConfig, type ReceivedStudy, ReceiveService } from '@main/core/receive';
import { silentLogger } from '@main/core/log';
import { writeCtSeries } from '@fixtures/dicom/generate';
import { waitFor } from '@support/harness/watch-harness';
import { dcmtk } from '@support/harness/receive-harness';
import { mountSmallDisk, type SmallDisk } from '@support/data/small-disk';

const src = mkdtempSync(join(tmpdir(), 'sb-receive-full-src-'));
afterAll(() => rmSync(src, { recursive: true, force: true }));
let disk: SmallDisk | null = null;
afterEach(() => {
  disk?.dispose();
  disk = null;
});

const config: ReceiveConfig = {
  aeTitle: 'SCANBRIDGE',
  allowed: [],
  examType: 'from_dicom',
  port: 0,
  quietSeconds: 1,
  stoppedAfterMinutes: 60,
  mode: 'auto',
};

describe('the DICOM listener on a full disk', () => {
  it('refuses with A700 while it cannot store, says so, keeps listening, and stores the resend once there is room', async () => {
    disk = mountSmallDisk(4);
    const root = join(disk.dir, 'received');
    const service = new ReceiveService({ root, config, log: silentLogger });
    const complete: ReceivedStudy[] = [];
    service.on('study:complete', (e) => complete.push(e));
    const port = await service.start();
    try {
      const series = await writeCtSeries(join(src, 'ct'), { slices: 3, rows: 64, cols: 64 });
      disk.fill();
      const refused = await dcmtk('storescu', [
        '-v',
        '-aec',
        'SCANBRIDGE',
        '127.0.0.1',
        String(port),
        '+sd',
        series.dir,
      ]);
      expect(refused.stdout + refused.stderr).toMatch(/Out ?of ?Resources/i);
      expect(service.state().message).toBe(
        `The disk holding the folder ${root} is full: free at least 16 MB on it. Nothing was lost.`,
      );
      expect(service.state().errors.map((e) => e.message)).toContain(service.state().message);
      // Nothing half-written is left where a scan would find it.
      const studies = join(root, 'studies');
      const kept = readdirSync(studies).flatMap((d) => readdirSync(join(studies, d)));
      expect(kept).toEqual([]);
      // Still listening.
      const echo = await dcmtk('echoscu', ['-aec', 'SCANBRIDGE', '127.0.0.1', String(port)]);
      expect(echo.code).toBe(0);

      disk.free();
      const sent = await dcmtk('storescu', ['-v', '-aec', 'SCANBRIDGE', '127.0.0.1', String(port), '+sd', series.dir]);
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.stdout + sent.stderr).not.toMatch(/Out ?of ?Resources/i);
      await waitFor(() => complete.length === 1, 20_000, 'the study handed on');
      expect(readdirSync(complete[0]?.folder ?? '')).toHaveLength(3);
      expect(service.state().message).toBeNull();
    } finally {
      await service.close();
    }
  });
});
