// The listener's own rules against DCMTK's echoscu, without the service: who may send, and a port
// already taken said in words.
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ListenError, type ReceiveConfig, type ReceivedStudy, ReceiveService } from '@main/core/receive';
import { silentLogger } from '@main/core/log';
import { writeCtSeries } from '@fixtures/dicom/generate';
import { waitFor } from '@support/harness/watch-harness';
import { dcmtk, storescu } from '@support/harness/receive-harness';

const dir = mkdtempSync(join(tmpdir(), 'sb-receive-svc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = (over: Partial<ReceiveConfig> = {}): ReceiveConfig => ({
  aeTitle: 'SCANBRIDGE',
  allowed: [],
  examType: 'from_dicom',
  port: 0,
  quietSeconds: 1,
  stoppedAfterMinutes: 60,
  mode: 'auto',
  ...over,
});

const echo = (port: number, calling: string) =>
  dcmtk('echoscu', ['-aet', calling, '-aec', 'SCANBRIDGE', '127.0.0.1', String(port)]);

describe('the DICOM listener', () => {
  it('answers C-ECHO from senders on the allow-list only, and says why it refused the others', async () => {
    const service = new ReceiveService({
      root: join(dir, 'allow'),
      config: config({ allowed: ['CS3D'] }),
      log: silentLogger,
    });
    const port = await service.start();
    try {
      expect((await echo(port, 'CS3D')).code).toBe(0);
      const refused = await echo(port, 'OTHER');
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('Calling AE Title Not Recognized');
      expect(service.state().errors.map((e) => e.message)).toEqual([
        'refused an association from OTHER at 127.0.0.1: not on the allow-list',
      ]);
      expect(service.state().last_association).toMatchObject({ calling_aet: 'CS3D', outcome: 'released', objects: 0 });
    } finally {
      await service.close();
    }
    expect(service.state().state).toBe('stopped');
  });

  it('keeps the objects of an aborted association and, after the long wait, reports that the sender stopped', async () => {
    // 0.02 minutes: a long wait of 1.2 s for the test.
    const service = new ReceiveService({
      root: join(dir, 'stopped'),
      config: config({ stoppedAfterMinutes: 0.02 }),
      log: silentLogger,
    });
    const complete: ReceivedStudy[] = [];
    const stopped: ReceivedStudy[] = [];
    service.on('study:complete', (e) => complete.push(e));
    service.on('study:stopped', (e) => stopped.push(e));
    const port = await service.start();
    try {
      const series = await writeCtSeries(join(dir, 'stopped-src'), { slices: 3, rows: 32, cols: 32 });

      const sent = await storescu(port, [series.dir], { abort: true });
      await waitFor(
        () => stopped.length === 1,
        20_000,
        `the sender-stopped report: ${JSON.stringify(service.state())} ${sent.stderr}`,
      );
      expect(stopped[0]).toMatchObject({
        study_uid: series.studyUid,
        stopped: true,
        from: { calling_aet: 'STORESCU', address: '127.0.0.1' },
      });
      expect(complete).toEqual([]);
      expect(await readdir(stopped[0]?.folder ?? '')).toHaveLength(3); // kept for the resend
      expect(service.state().last_association).toMatchObject({ outcome: 'aborted', objects: 3 });
    } finally {
      await service.close();
    }
  });

  it('says in words that its port is already in use', async () => {
    const taken: Server = createServer();
    await new Promise<void>((r) => taken.listen(0, () => r()));
    const address = taken.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const service = new ReceiveService({ root: join(dir, 'busy'), config: config({ port }), log: silentLogger });
    try {
      const error = await service.start().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ListenError);
      expect((error as Error).message).toBe(`port ${port} is already in use by another program`);
      expect(service.state()).toMatchObject({ state: 'port_in_use', port });
    } finally {
      await service.close();
      await new Promise<void>((r) => taken.close(() => r()));
    }
  });
});
