import { describe, expect, it } from 'vitest';
import { UploadJob } from '@main/core/upload/job/engine';
import { planUpload } from '@main/core/upload/plan/plan';
import {
  connect,
  examsNamed,
  expectedHashes,
  FAST,
  makeFiles,
  recording,
  remainingCalls,
  storedHashes,
  uploadScene,
} from '../../support/harness/upload-harness';

describe('upload engine against the emulator', () => {
  const ctx = uploadScene('sb-engine-');
  const { folder, dataDir } = ctx;

  it('uploads a folder in files mode with exactly two API calls, every byte stored', async () => {
    const root = folder('files');
    const files = makeFiles(root, 12, 90_000);
    const { client, port } = connect(ctx.emulator, 'pro');
    const rec = recording(port);
    const plan = await planUpload({ root, fields: { name: 'files happy', patient_id: 'P-1' }, files, mode: 'files' });
    const before = await remainingCalls(ctx.emulator, 'pro');
    const result = await UploadJob.create(plan, { port: rec.port, dataDir: dataDir() }).run();
    const after = await remainingCalls(ctx.emulator, 'pro');
    expect(before - after - 1).toBe(2); // create + confirm; the second GET /me is the 1
    expect(result).toMatchObject({ status: 'ready', files: 12, bytes: plan.bytes, mode: 'files', api_calls: 2 });
    const exam = await client.exams.get(result.exam_id);
    expect(exam).toMatchObject({ status: 'ready', file_count: 12, patient_id: 'P-1' });
    expect(exam.storage?.bytes).toBe(plan.bytes);
    const created = rec.created[0];
    expect(created).toBeDefined();
    if (created) expect(await storedHashes(created)).toEqual(expectedHashes(files));
  });

  it('uploads in zip mode: one streamed uncompressed ZIP, then process-zip', async () => {
    const root = folder('zip');
    const files = makeFiles(root, 30, 20_000);
    const { client, port } = connect(ctx.emulator, 'pro');
    const plan = await planUpload({ root, fields: { name: 'zip happy' }, files, mode: 'zip' });
    const before = await remainingCalls(ctx.emulator, 'pro');
    const result = await UploadJob.create(plan, { port, dataDir: dataDir() }).run();
    expect(before - (await remainingCalls(ctx.emulator, 'pro')) - 1).toBe(2); // create + process-zip
    expect(result).toMatchObject({ status: 'ready', files: 30, mode: 'zip', bytes_sent: plan.zipSize });
    const exam = await client.exams.get(result.exam_id);
    expect(exam).toMatchObject({ status: 'ready', upload_mode: 'zip', file_count: 30 });
    expect(exam.storage?.bytes).toBe(plan.bytes);
  });

  it('auto mode zips many small files and sends large ones one by one', async () => {
    const small = folder('auto-small');
    const many = makeFiles(small, 240, 2_000);
    const { port } = connect(ctx.emulator, 'pro');
    const planSmall = await planUpload({ root: small, fields: { name: 'auto small' }, files: many, mode: 'auto' });
    expect(planSmall.mode).toBe('zip');
    expect(await UploadJob.create(planSmall, { port, dataDir: dataDir() }).run()).toMatchObject({
      status: 'ready',
      mode: 'zip',
      files: 240,
    });
    const big = folder('auto-big');
    const planBig = await planUpload({
      root: big,
      fields: { name: 'auto big' },
      files: makeFiles(big, 3, 400_000),
      mode: 'auto',
    });
    expect(planBig.mode).toBe('files');
    expect(await UploadJob.create(planBig, { port, dataDir: dataDir() }).run()).toMatchObject({
      status: 'ready',
      mode: 'files',
    });
  });

  for (const mode of ['error500', 'reset', 'stall'] as const) {
    it(`completes despite storage faults (${mode}), resending whole files from fresh streams`, async () => {
      const root = folder(`fault-${mode}`);
      const files = makeFiles(root, 6, 150_000);
      const { client, port } = connect(ctx.emulator, 'clinica');
      const rec = recording(port);
      const plan = await planUpload({ root, fields: { name: `fault ${mode}` }, files, mode: 'files' });
      await ctx.emulator.control('POST', '/faults', { target: 'storage', mode, count: 3, match: 'PUT /storage/' });
      const retries: string[] = [];
      const job = UploadJob.create(plan, { port: rec.port, dataDir: dataDir(), options: { ...FAST, concurrency: 3 } });
      job.on((e) => {
        if (e.type === 'file' && e.progress.state === 'retrying') retries.push(e.name);
      });
      const result = await job.run();
      expect(result.status).toBe('ready');
      expect(retries.length).toBe(3);
      expect(await examsNamed(client, `fault ${mode}`)).toHaveLength(1);
      const created = rec.created[0];
      if (created) expect(await storedHashes(created)).toEqual(expectedHashes(files));
      expect(await ctx.emulator.control('GET', '/faults')).toEqual({ armed: [] });
    });
  }

  it('replaces the exam when storage says the upload URL expired, leaving no orphan', async () => {
    const root = folder('fault-expire');
    const files = makeFiles(root, 5, 50_000);
    const { client, port } = connect(ctx.emulator, 'clinica');
    const rec = recording(port);
    const plan = await planUpload({ root, fields: { name: 'fault expire' }, files, mode: 'files' });
    await ctx.emulator.control('POST', '/faults', {
      target: 'storage',
      mode: 'expire',
      count: 1,
      match: 'PUT /storage/',
    });
    const notices: string[] = [];
    const job = UploadJob.create(plan, { port: rec.port, dataDir: dataDir(), options: FAST });
    job.on((e) => {
      if (e.type === 'notice') notices.push(e.code);
    });
    const result = await job.run();
    expect(notices).toContain('exam_recreated');
    expect(rec.created).toHaveLength(2);
    const [first, second] = rec.created;
    expect(result.exam_id).toBe(second?.id);
    expect(await client.exams.get(first?.id ?? '').catch((e: { code?: string }) => e.code)).toBe('not_found');
    expect(await examsNamed(client, 'fault expire')).toEqual([
      expect.objectContaining({ id: result.exam_id, status: 'ready' }),
    ]);
    if (second) expect(await storedHashes(second)).toEqual(expectedHashes(files));
  });

  it('re-sends the ZIP from scratch after a reset mid-archive', async () => {
    const root = folder('zip-fault');
    const files = makeFiles(root, 40, 30_000);
    const { client, port } = connect(ctx.emulator, 'clinica');
    const plan = await planUpload({ root, fields: { name: 'zip fault' }, files, mode: 'zip' });
    await ctx.emulator.control('POST', '/faults', {
      target: 'storage',
      mode: 'reset',
      count: 1,
      match: 'PUT /storage/',
    });
    const result = await UploadJob.create(plan, { port, dataDir: dataDir(), options: FAST }).run();
    expect(result.status).toBe('ready');
    expect((await client.exams.get(result.exam_id)).storage?.bytes).toBe(plan.bytes);
  });
});
