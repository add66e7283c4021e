import { describe, expect, it } from 'vitest';
import { UploadJob, type UploadEvent } from '@main/core/upload/job/engine';
import { UploadError } from '@main/core/upload/ports/upload-errors';
import { readJournal } from '@main/core/upload/journal/journal';
import { planUpload } from '@main/core/upload/plan/plan';
import {
  connect,
  examsNamed,
  expectedHashes,
  FAST,
  makeFiles,
  nextEvent,
  recording,
  storedHashes,
  uploadScene,
} from '../../support/harness/upload-harness';

describe('upload engine: pause, cancel, bandwidth, progress, rate limit', () => {
  // 0.001: the 1-hour rate window lasts 3.6 s, so a Free key's 100 calls refill quickly.
  const ctx = uploadScene('sb-control-', { timeScale: 0.001 });
  const { folder, dataDir } = ctx;

  it('pause stops sending until resume, then the job completes with every byte', async () => {
    const root = folder('pause');
    const files = makeFiles(root, 8, 100_000);
    const { port } = connect(ctx.emulator, 'pro');
    const rec = recording(port);
    const plan = await planUpload({ root, fields: { name: 'pause' }, files, mode: 'files' });
    const job = UploadJob.create(plan, {
      port: rec.port,
      dataDir: dataDir(),
      options: { ...FAST, bandwidthLimit: 1_500_000, concurrency: 2 },
    });
    const events: { at: number; e: UploadEvent }[] = [];
    job.on((e) => events.push({ at: Date.now(), e }));
    // A file whose PUT already finished when pause() came may still complete: let those settle
    // first, then nothing may move until resume().
    let settled = -1;
    let afterPause = -1;
    let pausedAt = 0;
    void nextEvent(job.on.bind(job), (e) => e.type === 'file' && e.progress.state === 'done').then(async () => {
      job.pause();
      pausedAt = Date.now();
      await new Promise((r) => setTimeout(r, 150));
      settled = job.filesDone;
      await new Promise((r) => setTimeout(r, 600));
      afterPause = job.filesDone;
      job.resume();
    });
    const result = await job.run();
    expect(result.status).toBe('ready');
    expect(afterPause).toBe(settled);
    expect(settled).toBeLessThan(8);
    const resumedAt = pausedAt + 750;
    const sentDuringPause = events.filter(
      ({ at, e }) => at > pausedAt && at < resumedAt - 10 && e.type === 'file' && e.progress.state === 'sending',
    );
    expect(sentDuringPause).toHaveLength(0);
    const statuses = events.flatMap(({ e }) => (e.type === 'status' ? [e.status] : []));
    expect(statuses).toEqual(['creating', 'transferring', 'paused', 'transferring', 'confirming', 'ready']);
    const created = rec.created[0];
    if (created) expect(await storedHashes(created)).toEqual(expectedHashes(files));
  });

  it('cancel aborts the transfers and deletes the half-made exam', async () => {
    const root = folder('cancel');
    const files = makeFiles(root, 8, 100_000);
    const { client, port } = connect(ctx.emulator, 'pro');
    const rec = recording(port);
    const plan = await planUpload({ root, fields: { name: 'cancel me' }, files, mode: 'files' });
    const job = UploadJob.create(plan, {
      port: rec.port,
      dataDir: dataDir(),
      options: { ...FAST, bandwidthLimit: 500_000 },
    });
    void nextEvent(job.on.bind(job), (e) => e.type === 'file' && e.progress.state === 'done').then(() => job.cancel());
    const err: unknown = await job.run().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UploadError);
    expect((err as UploadError).code).toBe('cancelled');
    const examId = rec.created[0]?.id ?? '';
    expect(examId).toMatch(/^exm_/);
    expect(job.examId).toBeNull();
    expect(await client.exams.get(examId).catch((e: { code?: string }) => e.code)).toBe('not_found');
    expect(await examsNamed(client, 'cancel me')).toHaveLength(0);
    expect(readJournal(job.journalPath)).toEqual([expect.objectContaining({ t: 'summary', outcome: 'cancelled' })]);
  });

  it('keeps to the bandwidth limit and emits progress at a bounded rate', async () => {
    const root = folder('limit');
    const files = makeFiles(root, 3, 1_000_000);
    const { port } = connect(ctx.emulator, 'pro');
    const plan = await planUpload({ root, fields: { name: 'limited' }, files, mode: 'files' });
    const limit = 1_000_000; // 3 MB at 1 MB/s: 3 s
    const job = UploadJob.create(plan, {
      port,
      dataDir: dataDir(),
      options: { bandwidthLimit: limit, concurrency: 3 },
    });
    let start = 0;
    let end = 0;
    let progressEvents = 0;
    let otherEvents = 0;
    job.on((e) => {
      if (e.type === 'status' && e.status === 'transferring') start = performance.now();
      if (e.type === 'status' && e.status === 'confirming') end = performance.now();
      if (e.type === 'progress') progressEvents++;
      else if (e.type === 'status') otherEvents++;
    });
    const t0 = performance.now();
    await job.run();
    const seconds = (end - start) / 1000;
    const expected = plan.bytes / limit;
    expect(seconds).toBeGreaterThan(0.8 * expected);
    expect(seconds).toBeLessThan(3 * expected);
    // At most one progress event per 200 ms, plus one at each state change.
    expect(progressEvents).toBeLessThanOrEqual(Math.ceil((performance.now() - t0) / 200) + otherEvents + 1);
    expect(progressEvents).toBeGreaterThan(5);
  });

  it('waits out a 429 on the API (Retry-After) and then creates the exam', async () => {
    const root = folder('rate');
    const files = makeFiles(root, 2, 1000);
    const { client, port } = connect(ctx.emulator, 'free');
    const plan = await planUpload({ root, fields: { name: 'rate limited' }, files, mode: 'files' });
    // Spend the Free plan's 100 calls of the (scaled) hour.
    let limited = false;
    for (let i = 0; i < 120 && !limited; i++) {
      const res = await fetch(`${ctx.emulator.info.base_url}/me`, {
        headers: { Authorization: `Bearer ${ctx.emulator.info.keys.free}` },
      });
      await res.arrayBuffer();
      limited = res.status === 429;
    }
    expect(limited).toBe(true);
    const notices: string[] = [];
    const job = UploadJob.create(plan, { port, dataDir: dataDir() });
    job.on((e) => {
      if (e.type === 'notice') notices.push(e.code);
    });
    const result = await job.run();
    expect(notices).toContain('rate_limited');
    expect(result.status).toBe('ready');
    expect(await examsNamed(client, 'rate limited')).toHaveLength(1);
  });
});
