// A study whose storage stops answering (requests held open, no byte taken, no error) does not hold
// back the clinic's other studies: the queue runs one upload at a time, but a run that moves no
// bytes gives up its turn long before its transfers time out. Real agent, real emulator, DCMTK files.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UploadJobView } from '@preload/contract';
import { MemorySecretStore } from '@main/core/secrets';
import { writeCbctExport, writeRadiograph } from '../../fixtures/dicom/generate';
import { api } from '../../support/emulator';
import { emulatorScene } from '../../support/emulator-scene';
import { agentOn, poller } from '../../support/agent-harness';

const ctx = emulatorScene({ scratch: 'sb-agent-stall-' });

const waitFor = poller(60_000, 100);

type Armed = { armed: { target: string; mode: string; count: number; match?: string }[] };

describe('a stalled upload', () => {
  it('lets a study of another folder upload while its storage requests hang', async () => {
    const key = ctx.emulator.info.keys.clinica;
    const [stuckDir, otherDir] = ['stuck', 'other'].map((d) => join(ctx.scratch, d)) as [string, string];
    for (const d of [stuckDir, otherDir]) await mkdir(d);
    const h = await agentOn(ctx.emulator, {
      dataDir: join(ctx.scratch, 'data'),
      configDir: join(ctx.scratch, 'config'),
      secretStore: new MemorySecretStore(),
      systemLanguage: 'en',
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      // The stalled transfer is not given up within this test: only the queue can let the other
      // study through, not the transfer's own time-out and retry.
      tuning: { engine: { stallTimeoutMs: 600_000 } },
    });
    try {
      await h.call('keys:save', { key });
      await h.call('settings:update', { upload: { mode: 'auto', compress: 'always' } });
      for (const path of [stuckDir, otherDir])
        await h.call('folders:add', { path, exam_type: 'from_dicom', mode: 'auto', settle_seconds: 1, polling: false });
      const jobOf = async (studyUid: string): Promise<UploadJobView | undefined> => {
        const item = (await h.call('inbox:list', {})).find((i) => i.study_uid === studyUid);
        return item?.job_id ? (await h.call('uploads:list', {})).find((j) => j.id === item.job_id) : undefined;
      };

      // The CBCT goes as one compressed archive, in one PUT, which storage holds open.
      await ctx.emulator.control('POST', '/faults', { target: 'storage', mode: 'stall', count: 1 });
      const cbct = await writeCbctExport(join(stuckDir, 'CBCT'), {
        patientName: 'ÑÚÑEZ^BEGOÑA',
        volumeSlices: 40,
        scoutSlices: 2,
        rows: 128,
        cols: 128,
        dicomdir: false,
      });
      await waitFor(
        async () => ((await ctx.emulator.control<Armed>('GET', '/faults')).armed.length === 0 ? true : undefined),
        "the CBCT's archive to reach storage",
      );
      const stuck = await waitFor(() => jobOf(cbct.studyUid), 'the CBCT upload');
      expect(stuck.mode).toBe('zip');

      // A radiograph in the other folder is uploaded (its files are not held)…
      const pano = await writeRadiograph(join(otherDir, 'PANO', 'PX1.dcm'), {
        modality: 'PX',
        patientName: 'ROJAS^INÉS',
        patientId: '9',
        studyDate: '20260305',
        charset: 'latin1',
      });
      const other = await waitFor(async () => {
        const j = await jobOf(pano.studyUid);
        return j?.phase === 'ready' ? j : undefined;
      }, 'the radiograph to be uploaded');
      expect((await api(ctx.emulator.info, key, 'GET', `/exams/${other.exam_id}`)).json).toMatchObject({
        status: 'ready',
        file_count: 1,
      });
      // …while the CBCT's archive PUT is still held open: not given up, not failed, not retried.
      expect(await jobOf(cbct.studyUid)).toMatchObject({ phase: 'uploading', error: null, retry_at: null });
    } finally {
      await ctx.emulator.control('DELETE', '/faults');
      await h.agent.stop();
    }
  }, 120_000);
});
