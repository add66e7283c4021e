// The agent's upload queue against a real emulator: pause and resume, a restart of the app in the
// middle of an upload (the same exam is finished, no second one is made), cancel and retry.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UploadJobView } from '@preload/contract';
import { MemorySecretStore } from '@main/core/secrets';
import { writeCbctExport, writeRadiograph } from '../../fixtures/dicom/generate';
import { api } from '../../support/emulator/emulator';
import { emulatorScene } from '../../support/emulator/emulator-scene';
import { agentOn, poller, type AgentHarness } from '../../support/harness/agent-harness';

const ctx = emulatorScene({ scratch: 'sb-agent-up-' });

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const waitFor = poller(25_000, 50);

function open(dirs: { dataDir: string; configDir: string }, store: MemorySecretStore): Promise<AgentHarness> {
  return agentOn(ctx.emulator, {
    ...dirs,
    secretStore: store,
    systemLanguage: 'es',
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    tuning: { retryDelaysMs: [300] },
  });
}

const job = async (h: AgentHarness, id: string): Promise<UploadJobView | undefined> =>
  (await h.call('uploads:list', {})).find((j) => j.id === id);

describe('agent upload queue', () => {
  it('pauses and resumes, finishes the same exam after an app restart mid-upload, cancels and retries', async () => {
    const key = ctx.emulator.info.keys.clinica;
    const dirs = { dataDir: join(ctx.scratch, 'data'), configDir: join(ctx.scratch, 'config') };
    const watched = join(ctx.scratch, 'scanner');
    await mkdir(watched);
    const store = new MemorySecretStore();
    let h = await open(dirs, store);
    await h.call('keys:save', { key });
    await h.call('settings:update', { upload: { bandwidth_limit: 250_000, mode: 'files', concurrency: 2 } });
    await h.call('folders:add', {
      path: watched,
      exam_type: 'from_dicom',
      mode: 'review',
      settle_seconds: 1,
      polling: false,
    });
    await writeCbctExport(join(watched, 'CBCT'), {
      patientName: 'ÑÚÑEZ^BEGOÑA',
      volumeSlices: 40,
      scoutSlices: 2,
      rows: 128,
      cols: 128,
      dicomdir: false,
    });
    const item = await waitFor(async () => (await h.call('inbox:list', {}))[0], 'the study in the inbox');
    const { job_id } = await h.call('inbox:upload', { id: item.id });

    const moving = await waitFor(async () => {
      const j = await job(h, job_id);
      return j?.phase === 'uploading' && j.bytes_sent > 0 && j.exam_id ? j : undefined;
    }, 'the upload to move');
    expect((await h.call('uploads:pause', { id: job_id })).phase).toBe('paused');
    await sleep(300);
    const pausedAt = (await job(h, job_id))?.bytes_sent ?? 0;
    await sleep(600);
    expect((await job(h, job_id))?.bytes_sent).toBe(pausedAt);
    expect((await job(h, job_id))?.phase).toBe('paused');
    await expect(h.call('uploads:resume', { id: 'up_missing' })).rejects.toMatchObject({ code: 'not_found' });
    expect((await h.call('uploads:resume', { id: job_id })).phase).not.toBe('paused');
    await waitFor(
      async () => (((await job(h, job_id))?.bytes_sent ?? 0) > pausedAt ? true : undefined),
      'the upload to move again',
    );

    // The app quits in the middle of the upload and starts again. A compressed archive a crash
    // left with no job (its journal gone) is removed as it starts.
    await h.agent.stop();
    const orphanArchive = join(dirs.dataDir, 'archives', 'f00dfeedf00dfeed-0-000000.zip');
    await mkdir(join(dirs.dataDir, 'archives'), { recursive: true });
    await writeFile(orphanArchive, 'PK');
    h = await open(dirs, store);
    expect(existsSync(orphanArchive)).toBe(false);
    await h.call('settings:update', { upload: { bandwidth_limit: 0 } });
    const ready = await waitFor(
      async () => {
        const j = await job(h, job_id);
        return j?.phase === 'ready' ? j : undefined;
      },
      'the resumed upload',
      40_000,
    );
    expect(ready.exam_id).toBe(moving.exam_id);
    const list = await api(ctx.emulator.info, key, 'GET', '/exams?limit=100');
    expect(list.json['total']).toBe(1);
    expect((await api(ctx.emulator.info, key, 'GET', `/exams/${ready.exam_id}`)).json).toMatchObject({
      status: 'ready',
      file_count: 42,
      patient_name: 'BEGOÑA ÑÚÑEZ',
    });

    // A second study: cancelled once its exam exists (the half-made exam is removed), then retried.
    await h.call('settings:update', { upload: { bandwidth_limit: 20_000 } });
    await writeRadiograph(join(watched, 'PANO', 'PX1.dcm'), {
      modality: 'PX',
      patientName: 'GÓMEZ^ÍÑIGO',
      patientId: '7',
      studyDate: '20260302',
      charset: 'latin1',
    });
    const pano = await waitFor(
      async () => (await h.call('inbox:list', {})).find((i) => i.modality === 'PX'),
      'the radiograph in the inbox',
    );
    const second = (await h.call('inbox:upload', { id: pano.id })).job_id;
    const half = await waitFor(async () => {
      const j = await job(h, second);
      return j?.exam_id && j.phase === 'uploading' ? j : undefined;
    }, 'the second exam to be created');
    const cancelled = await h.call('uploads:cancel', { id: second });
    expect(cancelled.phase).toBe('cancelled');
    expect((await api(ctx.emulator.info, key, 'GET', `/exams/${half.exam_id}`)).status).toBe(404);
    expect((await h.call('inbox:list', {})).find((i) => i.id === pano.id)?.status).toBe('review');
    await expect(h.call('uploads:cancel', { id: job_id })).rejects.toMatchObject({ code: 'conflict' });

    await h.call('settings:update', { upload: { bandwidth_limit: 0 } });
    expect(['queued', 'creating']).toContain((await h.call('uploads:retry', { id: second })).phase);
    const retried = await waitFor(async () => {
      const j = await job(h, second);
      return j?.phase === 'ready' ? j : undefined;
    }, 'the retried upload');
    expect(retried.exam_id).not.toBe(half.exam_id);
    expect((await h.call('inbox:list', {})).find((i) => i.id === pano.id)?.status).toBe('uploaded');
    expect((await api(ctx.emulator.info, key, 'GET', '/exams?limit=100')).json['total']).toBe(2);
    await h.agent.stop();
  });

  it('a job waiting to retry after storage faults, once paused, keeps no retry time and is not retried until resumed', async () => {
    const key = ctx.emulator.info.keys.clinica;
    const dirs = { dataDir: join(ctx.scratch, 'data-retry'), configDir: join(ctx.scratch, 'config-retry') };
    const watched = join(ctx.scratch, 'scanner-retry');
    await mkdir(watched);
    const retryMs = 4000;
    const h = await agentOn(ctx.emulator, {
      ...dirs,
      secretStore: new MemorySecretStore(),
      systemLanguage: 'en',
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      // Storage attempts fail fast, and a failed run waits 4 s before it is tried again.
      tuning: { retryDelaysMs: [retryMs], engine: { maxAttempts: 2, backoff: { baseMs: 20, capMs: 20 } } },
    });
    await h.call('keys:save', { key });
    await h.call('folders:add', {
      path: watched,
      exam_type: 'from_dicom',
      mode: 'review',
      settle_seconds: 1,
      polling: false,
    });
    // Every storage PUT fails with a 500 while the fault is armed.
    await ctx.emulator.control('POST', '/faults', { target: 'storage', mode: 'error500', count: 100_000 });
    try {
      await writeRadiograph(join(watched, 'PANO', 'PX1.dcm'), {
        modality: 'PX',
        patientName: 'ROJAS^INÉS',
        patientId: '9',
        studyDate: '20260305',
        charset: 'latin1',
      });
      const item = await waitFor(async () => (await h.call('inbox:list', {}))[0], 'the radiograph in the inbox');
      const { job_id } = await h.call('inbox:upload', { id: item.id });
      const waiting = await waitFor(async () => {
        const j = await job(h, job_id);
        return j?.phase === 'failed' && j.retry_at ? j : undefined;
      }, 'the job to wait for its retry');
      expect(Date.parse(waiting.retry_at ?? '')).toBeGreaterThan(Date.now());

      const paused = await h.call('uploads:pause', { id: job_id });
      expect(paused).toMatchObject({ phase: 'paused', retry_at: null });
      type Armed = { armed: { count: number }[] };
      const attemptsLeft = async (): Promise<number> =>
        (await ctx.emulator.control<Armed>('GET', '/faults')).armed[0]?.count ?? 0;
      const before = await attemptsLeft();
      // Past the moment the retry was due: still paused, and no storage attempt was made.
      await sleep(retryMs + 1000);
      expect(await job(h, job_id)).toMatchObject({ phase: 'paused', retry_at: null });
      expect(await attemptsLeft()).toBe(before);

      // Storage answers again: resumed, it finishes.
      await ctx.emulator.control('DELETE', '/faults');
      expect((await h.call('uploads:resume', { id: job_id })).phase).not.toBe('paused');
      const ready = await waitFor(async () => {
        const j = await job(h, job_id);
        return j?.phase === 'ready' ? j : undefined;
      }, 'the resumed upload');
      expect((await api(ctx.emulator.info, key, 'GET', `/exams/${ready.exam_id}`)).json).toMatchObject({
        status: 'ready',
        file_count: 1,
      });
    } finally {
      await ctx.emulator.control('DELETE', '/faults');
      await h.agent.stop();
    }
  });
});
