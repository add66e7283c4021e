// A study whose storage keeps failing does not hold back the clinic's other studies: the queue runs
// one upload at a time, but a run that is retrying storage faults, or that moves no bytes (its
// requests held open, no error), gives up its turn to the next study. Real agent, real emulator,
// DCMTK files; the failing study is a CBCT sent as one compressed archive.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UploadJobView } from '@preload/contract';
import type { EngineOptions } from '@main/core/upload/job/engine';
import { MemorySecretStore } from '@main/core/secrets';
import { writeCbctExport, writeRadiograph } from '../../fixtures/dicom/generate';
import { api } from '../../support/emulator/emulator';
import { emulatorScene } from '../../support/emulator/emulator-scene';
import { agentOn, poller, type AgentHarness } from '../../support/harness/agent-harness';

const ctx = emulatorScene({ scratch: 'sb-agent-stall-' });

const waitFor = poller(60_000, 100);

type Armed = { armed: { target: string; mode: string; count: number; match?: string }[] };

const faultsTaken = async (armedCount: number): Promise<number> =>
  armedCount - ((await ctx.emulator.control<Armed>('GET', '/faults')).armed[0]?.count ?? 0);

/**
 * An agent watching two folders in automatic mode, with compression always on; `failing` writes a
 * CBCT into the first (sent as one archive) and resolves once its archive PUT met the armed fault.
 */
async function twoFolders(
  name: string,
  tuning: { engine: EngineOptions; quietMs?: number },
  fault: { mode: string; count: number },
) {
  const key = ctx.emulator.info.keys.clinica;
  const [stuckDir, otherDir] = ['stuck', 'other'].map((d) => join(ctx.scratch, name, d)) as [string, string];
  for (const d of [stuckDir, otherDir]) await mkdir(d, { recursive: true });
  const h: AgentHarness = await agentOn(ctx.emulator, {
    dataDir: join(ctx.scratch, name, 'data'),
    configDir: join(ctx.scratch, name, 'config'),
    secretStore: new MemorySecretStore(),
    systemLanguage: 'en',
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    tuning,
  });
  await h.call('keys:save', { key });
  await h.call('settings:update', { upload: { mode: 'auto', compress: 'always' } });
  for (const path of [stuckDir, otherDir])
    await h.call('folders:add', { path, exam_type: 'from_dicom', mode: 'auto', settle_seconds: 1, polling: false });
  const jobOf = async (studyUid: string): Promise<UploadJobView | undefined> => {
    const item = (await h.call('inbox:list', {})).find((i) => i.study_uid === studyUid);
    return item?.job_id ? (await h.call('uploads:list', {})).find((j) => j.id === item.job_id) : undefined;
  };
  const failing = async (): Promise<UploadJobView> => {
    // Only the archive's PUTs fail (the other study's files go one by one, as named objects).
    await ctx.emulator.control('POST', '/faults', { target: 'storage', ...fault, match: 'upload.zip' });
    const cbct = await writeCbctExport(join(stuckDir, 'CBCT'), {
      patientName: 'ÑÚÑEZ^BEGOÑA',
      volumeSlices: 40,
      scoutSlices: 2,
      rows: 128,
      cols: 128,
      dicomdir: false,
    });
    await waitFor(
      async () => ((await faultsTaken(fault.count)) > 0 ? true : undefined),
      "the CBCT's archive to reach storage",
    );
    const stuck = await waitFor(() => jobOf(cbct.studyUid), 'the CBCT upload');
    expect(stuck.mode).toBe('zip');
    // The next study is planned file by file, so that storage's faults do not touch it.
    await h.call('settings:update', { upload: { mode: 'files' } });
    return stuck;
  };
  /** Writes a radiograph into the second folder and waits for its exam to be ready. */
  const other = async (): Promise<UploadJobView> => {
    const pano = await writeRadiograph(join(otherDir, 'PANO', 'PX1.dcm'), {
      modality: 'PX',
      patientName: 'ROJAS^INÉS',
      patientId: '9',
      studyDate: '20260305',
      charset: 'latin1',
    });
    const done = await waitFor(async () => {
      const j = await jobOf(pano.studyUid);
      return j?.phase === 'ready' ? j : undefined;
    }, 'the radiograph to be uploaded');
    expect((await api(ctx.emulator.info, key, 'GET', `/exams/${done.exam_id}`)).json).toMatchObject({
      status: 'ready',
      file_count: 1,
    });
    return done;
  };
  const stop = async (): Promise<void> => {
    await ctx.emulator.control('DELETE', '/faults');
    await h.agent.stop();
  };
  return { h, failing, other, stop };
}

describe('a failing upload', () => {
  it('lets a study of another folder upload while its storage requests hang', async () => {
    // The stalled transfer is not given up within this test: only the queue can let the other
    // study through, not the transfer's own time-out and retry.
    const scene = await twoFolders('stall', { engine: { stallTimeoutMs: 600_000 } }, { mode: 'stall', count: 1 });
    try {
      const stuck = await scene.failing();
      await scene.other();
      // …while the CBCT's archive PUT is still held open: not given up, not failed, not retried.
      expect((await scene.h.call('uploads:list', {})).find((j) => j.id === stuck.id)).toMatchObject({
        phase: 'uploading',
        error: null,
        retry_at: null,
      });
    } finally {
      await scene.stop();
    }
  }, 120_000);

  it('lets a study of another folder upload while its archive is retried within one run', async () => {
    // Every archive PUT fails at once, and the run keeps retrying it: it never gives up in this
    // test, so no wait between runs lets the other study through, nor does a quiet spell (the
    // queue's time without headway is longer than the test); only the run's retries do.
    const count = 100_000;
    const scene = await twoFolders(
      'retry',
      { engine: { maxAttempts: 1_000_000, backoff: { baseMs: 100, capMs: 100 } }, quietMs: 600_000 },
      { mode: 'error500', count },
    );
    try {
      const stuck = await scene.failing();
      await scene.other();
      // …while the CBCT's run is still retrying its archive.
      const retried = await faultsTaken(count);
      await waitFor(async () => ((await faultsTaken(count)) > retried ? true : undefined), 'the archive retried');
      expect((await scene.h.call('uploads:list', {})).find((j) => j.id === stuck.id)).toMatchObject({
        phase: 'uploading',
        error: null,
        retry_at: null,
      });
    } finally {
      await scene.stop();
    }
  }, 120_000);
});
