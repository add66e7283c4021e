// Compressed zip mode under staff's controls, against the emulator: pause, resume and cancel while
// the archive is sent and while the service unpacks it (the compressing phase is covered in
// compressed-upload.test.ts), the bandwidth limit on the archive's PUT, and no archive left in the
// data folder once a job ends or when its job is gone.
import { appendFileSync, cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { archivePathOf } from '@main/core/upload/job/archive';
import { sweepOrphanArchives } from '@main/core/upload/job/archive-sweep';
import { UploadJob, type EngineOptions, type UploadEvent } from '@main/core/upload/job/engine';
import { READ_CHUNK_BYTES } from '@main/core/upload/transfer/file-source';
import { readJournal } from '@main/core/upload/journal/journal';
import { planUpload, type PlanFileInput } from '@main/core/upload/plan/plan';
import {
  connect,
  examsNamed,
  expectedHashes,
  failure,
  nextEvent,
  phantomFiles,
  recording,
  uploadScene,
  zipStoredHashes,
} from '@support/harness/upload-harness';

type Armed = { armed: unknown[] };

/** The first moment bytes of the archive are on the wire. */
const sendingArchive = (e: UploadEvent): boolean =>
  e.type === 'progress' && e.totals.compression?.state === 'sending' && e.totals.bytesSent > 0;

describe('compressed zip mode: pause, resume and cancel in every phase; bandwidth limit; no archive left', () => {
  const ctx = uploadScene('sb-ccontrol-');
  let study: Promise<{ root: string; files: PlanFileInput[] }> | undefined;
  /** One phantom of 30 slices (3.9 MB, about 2 MB deflated) for the tests that do not change it. */
  const phantom = (): Promise<{ root: string; files: PlanFileInput[] }> => {
    study ??= (async () => {
      const root = ctx.folder('phantom');
      return { root, files: await phantomFiles(root, 30) };
    })();
    return study;
  };

  /** A new compressed zip-mode job of `files`, its statuses recorded in order. */
  async function compressedJob(
    name: string,
    options: EngineOptions = {},
    source?: { root: string; files: PlanFileInput[] },
    dataDir = ctx.dataDir(),
  ) {
    const { root, files } = source ?? (await phantom());
    const { client, port } = connect(ctx.emulator, 'pro');
    const rec = recording(port);
    const plan = { ...(await planUpload({ root, fields: { name }, files, mode: 'zip' })), compress: true };
    const job = UploadJob.create(plan, { port: rec.port, dataDir, options });
    const statuses: string[] = [];
    job.on((e) => e.type === 'status' && statuses.push(e.status));
    const on = job.on.bind(job);
    return { job, on, plan, files, client, created: rec.created, statuses, dataDir };
  }

  /** The exam is ready on the service with every file equal to the original, byte for byte. */
  async function expectStored(c: Awaited<ReturnType<typeof compressedJob>>, examId: string): Promise<void> {
    const exam = await c.client.exams.get(examId);
    expect(exam).toMatchObject({ status: 'ready', upload_mode: 'zip', file_count: c.files.length });
    expect(
      zipStoredHashes(
        ctx.emulator,
        examId,
        c.files.map((f) => f.name),
      ),
    ).toEqual(expectedHashes(c.files));
  }

  /** Cancelled: the exam is gone from the service, the archive from the disk, the journal says so. */
  async function expectCancelled(c: Awaited<ReturnType<typeof compressedJob>>, examId: string): Promise<void> {
    expect(c.job.phase).toBe('cancelled');
    expect(c.statuses.at(-1)).toBe('cancelled');
    expect(await c.client.exams.get(examId).catch((e: { code?: string }) => e.code)).toBe('not_found');
    expect(await examsNamed(c.client, c.plan.fields.name)).toHaveLength(0);
    expect(existsSync(archivePathOf(c.dataDir, c.job.jobId))).toBe(false);
    expect(readJournal(c.job.journalPath)).toEqual([expect.objectContaining({ t: 'summary', outcome: 'cancelled' })]);
    // Nothing of the job is left running: a service round trip later no event has come, and
    // running it again ends at once.
    let later = 0;
    c.job.on(() => later++);
    await c.client.exams.list({ limit: 1 });
    expect((await failure(c.job.run())).code).toBe('cancelled');
    expect(later).toBe(0);
  }

  it('pause while sending aborts the PUT at once, nothing moves until resume, then the archive is sent again whole: ready, every byte', async () => {
    const c = await compressedJob('pause-sending', { bandwidthLimit: 2_000_000 });
    let archiveBytes = 0;
    let sentWhilePaused = -1;
    void nextEvent(c.on, sendingArchive).then(async (e) => {
      if (e.type === 'progress') archiveBytes = e.totals.bytesTotal;
      c.job.pause();
      // The aborted attempt's bytes are rolled back at once…
      await nextEvent(c.on, (x) => x.type === 'progress' && x.totals.bytesSent === 0);
      // …and the next tick of the progress clock still finds nothing sent.
      const next = await nextEvent(c.on, (x) => x.type === 'progress');
      if (next.type === 'progress') sentWhilePaused = next.totals.bytesSent;
      c.job.resume();
    });
    const result = await c.job.run();
    expect(c.statuses).toEqual([
      'compressing',
      'creating',
      'transferring',
      'paused',
      'transferring',
      'confirming',
      'ready',
    ]);
    expect(sentWhilePaused).toBe(0);
    // A presigned PUT cannot continue where it stopped: the archive went again from its first byte.
    expect(archiveBytes).toBeGreaterThan(0);
    expect(result.bytes_sent).toBeGreaterThan(archiveBytes);
    expect(result.bytes_sent).toBeLessThan(2 * archiveBytes);
    expect(c.created).toHaveLength(1);
    await expectStored(c, result.exam_id);
    await c.job.whenCompacted();
    expect(existsSync(archivePathOf(c.dataDir, c.job.jobId))).toBe(false);
  });

  it('cancel while sending aborts the PUT, deletes the exam and the archive, and the job says cancelled', async () => {
    const c = await compressedJob('cancel-sending', { bandwidthLimit: 2_000_000 });
    let examId = '';
    let cancelling: Promise<void> | undefined;
    void nextEvent(c.on, sendingArchive).then(() => {
      examId = c.job.examId ?? '';
      cancelling = c.job.cancel();
    });
    const err = await failure(c.job.run());
    await cancelling;
    expect(err.code).toBe('cancelled');
    expect(examId).toMatch(/^exm_/);
    await expectCancelled(c, examId);
  });

  it('cancel while the service unpacks the archive deletes the exam and the archive, and the job says cancelled', async () => {
    const c = await compressedJob('cancel-confirming');
    // process-zip is held open by the service: the job is cancelled while it waits for the answer.
    await ctx.emulator.control('POST', '/faults', { target: 'api', mode: 'stall', count: 1, match: 'process-zip' });
    let cancelling: Promise<void> | undefined;
    let examId = '';
    void nextEvent(c.on, (e) => e.type === 'status' && e.status === 'confirming').then(async () => {
      examId = c.job.examId ?? '';
      // Once the request has reached the service (the fault is used up), cancel.
      while ((await ctx.emulator.control<Armed>('GET', '/faults')).armed.length > 0)
        await new Promise((r) => setTimeout(r, 20));
      cancelling = c.job.cancel();
    });
    try {
      const err = await failure(c.job.run());
      await cancelling;
      expect(err.code).toBe('cancelled');
    } finally {
      await ctx.emulator.control('DELETE', '/faults');
    }
    expect(c.statuses.slice(0, 4)).toEqual(['compressing', 'creating', 'transferring', 'confirming']);
    expect(examId).toMatch(/^exm_/);
    await expectCancelled(c, examId);
  });

  it('pause while the service unpacks lets it finish; resume reports confirming again, and the exam is ready with every byte', async () => {
    const c = await compressedJob('pause-confirming');
    c.job.on((e) => {
      if (e.type !== 'status') return;
      if (e.status === 'confirming' && !c.job.isPaused && !c.statuses.includes('paused')) c.job.pause();
      else if (e.status === 'paused') void Promise.resolve().then(() => c.job.resume());
    });
    const result = await c.job.run();
    expect(c.statuses).toEqual([
      'compressing',
      'creating',
      'transferring',
      'confirming',
      'paused',
      'confirming',
      'ready',
    ]);
    await expectStored(c, result.exam_id);
  });

  it('a cancel that comes as the exam becomes ready leaves it ready (a ready exam is never deleted)', async () => {
    const c = await compressedJob('cancel-at-ready');
    let cancelling: Promise<void> | undefined;
    c.job.on((e) => {
      if (e.type === 'status' && e.status === 'ready') cancelling = c.job.cancel();
    });
    const result = await c.job.run();
    await cancelling;
    expect(c.job.phase).toBe('ready');
    expect(c.statuses.at(-1)).toBe('ready');
    await expectStored(c, result.exam_id);
    await c.job.whenCompacted();
    expect(readJournal(c.job.journalPath)).toEqual([expect.objectContaining({ t: 'summary', outcome: 'ready' })]);
    expect(existsSync(archivePathOf(c.dataDir, c.job.jobId))).toBe(false);
  });

  it('keeps the archive on the wire under the bandwidth limit', async () => {
    const limit = 1_000_000;
    const c = await compressedJob('limited', { bandwidthLimit: limit });
    const samples: { at: number; bytes: number }[] = [];
    let start = 0;
    let end = 0;
    c.job.on((e) => {
      if (e.type === 'status' && e.status === 'transferring') start = performance.now();
      if (e.type === 'status' && e.status === 'confirming') end = performance.now();
      if (e.type === 'progress' && e.totals.compression?.state === 'sending')
        samples.push({ at: performance.now(), bytes: e.totals.bytesSent });
    });
    const result = await c.job.run();
    const archive = result.bytes_sent;
    expect(archive).toBeLessThan(c.plan.bytes * 0.6); // compressed, not the study's own bytes
    const seconds = (end - start) / 1000;
    // On average at most the limit, and not far below it.
    expect(archive / seconds).toBeLessThan(1.05 * limit);
    expect(archive / seconds).toBeGreaterThan(0.5 * limit);
    // Over every stretch of a second or more, at most what the token bucket allows: the limit,
    // its 50 ms burst, and the read chunk that was let through last (counted as it leaves).
    let windows = 0;
    for (const [i, a] of samples.entries())
      for (const b of samples.slice(i + 1)) {
        const dt = (b.at - a.at) / 1000;
        if (dt < 1) continue;
        windows++;
        expect(b.bytes - a.bytes).toBeLessThanOrEqual(limit * (dt + 0.05) + READ_CHUNK_BYTES);
      }
    expect(windows).toBeGreaterThan(0);
    await expectStored(c, result.exam_id);
  });

  it('removes the archive of a job that failed for good (a file changed after it was compressed)', async () => {
    const source = await phantom();
    const root = ctx.folder('changed');
    cpSync(source.root, root, { recursive: true });
    const files = source.files.map((f) => ({ name: f.name, path: join(root, relative(source.root, f.path)) }));
    const changed = files[3] as PlanFileInput;
    const c = await compressedJob('changed', {}, { root, files });
    c.job.on((e) => e.type === 'status' && e.status === 'creating' && appendFileSync(changed.path, 'x'));
    const err = await failure(c.job.run());
    expect(err.resumable).toBe(false);
    expect(err.message).toContain(changed.name);
    expect(c.job.phase).toBe('failed');
    expect(await examsNamed(c.client, 'changed')).toHaveLength(0);
    expect(existsSync(archivePathOf(c.dataDir, c.job.jobId))).toBe(false);
  });

  it("at start-up removes archives whose job ended or is gone, and keeps an unfinished job's, which then finishes", async () => {
    const dataDir = join(ctx.scratch, 'data-sweep');
    // An unfinished job: stopped once its archive is begun (the first slices deflated).
    const c = await compressedJob('sweep', {}, undefined, dataDir);
    c.job.on((e) => e.type === 'progress' && (e.totals.compression?.studyBytesDone ?? 0) > 0 && void c.job.stop());
    expect((await failure(c.job.run())).code).toBe('interrupted');
    const kept = archivePathOf(dataDir, c.job.jobId);
    expect(existsSync(kept)).toBe(true);
    // What a crash leaves: the archive of a job whose journal is gone, and of one that ended
    // (killed between its last record and the archive's removal).
    const ended = await compressedJob('sweep-ended', {}, undefined, dataDir);
    await ended.job.run();
    await ended.job.whenCompacted();
    const endedArchive = archivePathOf(dataDir, ended.job.jobId);
    const gone = archivePathOf(dataDir, 'f00dfeedf00dfeed-0-000000');
    mkdirSync(join(dataDir, 'archives'), { recursive: true });
    writeFileSync(endedArchive, 'PK');
    writeFileSync(gone, 'PK');

    expect(sweepOrphanArchives(dataDir).sort()).toEqual([ended.job.jobId, 'f00dfeedf00dfeed-0-000000'].sort());
    expect(existsSync(endedArchive)).toBe(false);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(kept)).toBe(true);

    const again = UploadJob.open(c.job.journalPath, { port: connect(ctx.emulator, 'pro').port, dataDir });
    const result = await again.run();
    await expectStored(c, result.exam_id);
    expect(existsSync(kept)).toBe(false);
  });
});
