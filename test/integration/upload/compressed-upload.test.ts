// Compressed zip mode against the emulator: a CBCT-like phantom deflated on worker threads into a
// private archive that is sent while it is written (the exam declared with a budget, the archive
// padded up to it), and stored byte for byte; pause while writing and sending, cancel while
// compressing; the complete archive reused (not deflated again) when the job is reopened; an
// archive over its budget sent to a new exam at its exact size.
import { copyFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { archivePathOf } from '@main/core/upload/job/archive';
import { UploadJob, type UploadEvent } from '@main/core/upload/job/engine';
import { readJournal } from '@main/core/upload/journal/journal';
import { planUpload, type PlanFileInput } from '@main/core/upload/plan/plan';
import {
  connect,
  examsNamed,
  expectedHashes,
  failure,
  phantomFiles,
  uploadScene,
  zipStoredHashes,
} from '@support/harness/upload-harness';

describe('compressed zip mode', () => {
  const ctx = uploadScene('sb-compress-');
  /** Every file stored on the exam byte for byte. */
  const expectStored = (examId: string, files: readonly PlanFileInput[]): void => {
    const names = files.map((f) => f.name);
    expect(zipStoredHashes(ctx.emulator, examId, names)).toEqual(expectedHashes(files));
  };

  it('stores every file byte for byte after a compressed upload, sending about half the bytes', async () => {
    const root = ctx.folder('phantom');
    const files = await phantomFiles(root, 40);
    const { client, port } = connect(ctx.emulator, 'pro');
    const plan = {
      ...(await planUpload({ root, fields: { name: 'compressed' }, files, mode: 'zip' })),
      compress: true,
    };
    const job = UploadJob.create(plan, { port, dataDir: ctx.dataDir() });
    const statuses: string[] = [];
    let compressing: UploadEvent | null = null;
    let atTransfer: ReturnType<typeof readJournal> = [];
    job.on((e) => {
      if (e.type === 'status') statuses.push(e.status);
      if (e.type === 'status' && e.status === 'transferring') atTransfer = readJournal(job.journalPath);
      if (e.type === 'progress' && e.totals.compression?.state === 'compressing') compressing = e;
    });
    const result = await job.run();
    expect(statuses.slice(0, 3)).toEqual(['compressing', 'creating', 'transferring']);
    expect(compressing).not.toBeNull();
    const exam = await client.exams.get(result.exam_id);
    expect(exam).toMatchObject({ status: 'ready', upload_mode: 'zip', file_count: 40 });
    expect(exam.storage?.bytes).toBe(plan.bytes);
    expectStored(result.exam_id, files);
    // Sent while it was written: declared with a budget before the create, and padded up to it.
    const records = atTransfer;
    const budget = records.find((r) => r.t === 'budget');
    expect(records.findIndex((r) => r.t === 'budget')).toBeLessThan(records.findIndex((r) => r.t === 'creating'));
    expect(result.bytes_sent).toBe(budget?.t === 'budget' ? budget.size : -1);
    // The phantom deflates about 2×: what went on the wire is the archive, well under the study.
    expect(result.bytes_sent).toBeLessThan(plan.bytes * 0.6);
    const final = job.totals();
    expect(final.compression).toMatchObject({ state: 'sending', studyBytes: plan.bytes });
    expect(final.compression?.ratio ?? 0).toBeGreaterThan(1.6);
    // The archive is gone once the exam is ready.
    await job.whenCompacted();
    expect(existsSync(archivePathOf(ctx.dataDir(), job.jobId))).toBe(false);
  });

  it('pauses and resumes while the archive is written and sent, and a reopened job reuses the complete archive', async () => {
    const root = ctx.folder('pause');
    const files = await phantomFiles(root, 60);
    const { port } = connect(ctx.emulator, 'pro');
    const plan = { ...(await planUpload({ root, fields: { name: 'pause' }, files, mode: 'zip' })), compress: true };
    const dataDir = ctx.dataDir();
    // Slower than deflating: the archive is complete well before the PUT ends.
    const job = UploadJob.create(plan, { port, dataDir, options: { bandwidthLimit: 2_000_000 } });
    const statuses: string[] = [];
    job.on((e) => e.type === 'status' && statuses.push(e.status));
    // Paused while the archive is still being written (and sent as it grows), then resumed.
    let paused = false;
    job.on((e) => {
      const c = e.type === 'progress' ? e.totals.compression : undefined;
      if (
        !paused &&
        c &&
        c.studyBytesDone > 0 &&
        c.studyBytesDone < c.studyBytes &&
        statuses.at(-1) === 'transferring'
      ) {
        paused = true;
        job.pause();
        setTimeout(() => job.resume(), 100);
      }
    });
    const running = job.run();
    // Stopped once the archive is complete, while it is still being sent: the next run reuses it.
    const stopped = new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (readJournal(job.journalPath).some((r) => r.t === 'compressed')) {
          clearInterval(timer);
          void job.stop().then(resolve);
        }
      }, 10);
    });
    await stopped;
    await running.catch(() => undefined);
    expect(paused).toBe(true);
    expect(statuses.slice(0, 6)).toEqual([
      'compressing',
      'creating',
      'transferring',
      'paused',
      'transferring',
      'interrupted',
    ]);
    const records = readJournal(job.journalPath);
    // Declared before the create with a budget; the archive came out at exactly that size.
    const budget = records.find((r) => r.t === 'budget');
    const compressed = records.find((r) => r.t === 'compressed');
    expect(records.findIndex((r) => r.t === 'budget')).toBeLessThan(records.findIndex((r) => r.t === 'creating'));
    expect(budget && compressed && budget.size === compressed.size).toBe(true);
    expect(records.some((r) => r.t === 'uploaded')).toBe(false);
    const archive = archivePathOf(dataDir, job.jobId);
    expect(statSync(archive).size).toBe(compressed?.t === 'compressed' ? compressed.size : -1);

    const again = UploadJob.open(job.journalPath, { port, dataDir });
    const seen: string[] = [];
    const notices: string[] = [];
    again.on((e) => e.type === 'status' && seen.push(e.status));
    again.on((e) => e.type === 'notice' && notices.push(e.message));
    const result = await again.run();
    expect(seen).not.toContain('compressing');
    expect(notices.join(' ')).not.toMatch(/Continuing the compression/);
    expect(statSync(archive, { throwIfNoEntry: false })).toBeUndefined();
    const after = readJournal(again.journalPath);
    expect(after.filter((r) => r.t === 'packed' && r.n === 0)).toHaveLength(0);
    expect(after.filter((r) => r.t === 'compressed')).toHaveLength(1);
    expectStored(result.exam_id, files);
  });

  it('an archive that comes out larger than its budget is kept, and the exam made again at its exact size', async () => {
    // Every slice the estimate samples compresses; every other one is noise: the budget is far too low.
    const cbct = await phantomFiles(ctx.folder('over-cbct'), 12);
    const noise = await phantomFiles(ctx.folder('over-noise'), 12, 'noise');
    const root = ctx.folder('over');
    const files = cbct.flatMap((c, i) => {
      const n = noise[i] as (typeof noise)[number];
      const names = [`s${String(2 * i).padStart(2, '0')}.dcm`, `s${String(2 * i + 1).padStart(2, '0')}.dcm`];
      // The estimate samples files 2, 6, 10…: the even ones.
      copyFileSync(c.path, join(root, names[0] as string));
      copyFileSync(n.path, join(root, names[1] as string));
      return names.map((name) => ({ name, path: join(root, name) }));
    });
    const { client, port } = connect(ctx.emulator, 'pro');
    const plan = {
      ...(await planUpload({ root, fields: { name: 'over budget' }, files, mode: 'zip' })),
      compress: true,
    };
    const job = UploadJob.create(plan, { port, dataDir: ctx.dataDir() });
    const notices: string[] = [];
    job.on((e) => e.type === 'notice' && notices.push(e.message));
    const result = await job.run();
    const records = readJournal(job.journalPath);
    const budgets = records.flatMap((r) => (r.t === 'budget' ? [r.size] : []));
    const compressed = records.find((r) => r.t === 'compressed');
    expect(budgets).toHaveLength(2);
    expect(compressed?.t === 'compressed' && compressed.size).toBeGreaterThan(budgets[0] ?? Infinity);
    expect(budgets[1]).toBe(compressed?.t === 'compressed' ? compressed.size : -1);
    const discarded = records.filter((r) => r.t === 'discarded');
    expect(discarded).toMatchObject([{ reason: 'over_budget' }]);
    expect(notices.join(' ')).toMatch(/larger than estimated/);
    // The first exam is gone; the second is ready with every byte.
    await expect(client.exams.get(discarded[0]?.t === 'discarded' ? discarded[0].exam_id : '')).rejects.toThrow();
    expectStored(result.exam_id, files);
  });

  it('stopped as the exam is being created: the rerun keeps the journaled budget, and the archive comes out at that size', async () => {
    const root = ctx.folder('stop-create');
    const files = await phantomFiles(root, 24);
    const { client, port } = connect(ctx.emulator, 'pro');
    const plan = {
      ...(await planUpload({ root, fields: { name: 'stop-create' }, files, mode: 'zip' })),
      compress: true,
    };
    const dataDir = ctx.dataDir();
    const job = UploadJob.create(plan, { port, dataDir });
    job.on((e) => e.type === 'status' && e.status === 'creating' && void job.stop());
    expect((await failure(job.run())).code).toBe('interrupted');
    const first = readJournal(job.journalPath).filter((r) => r.t === 'budget');
    expect(first).toHaveLength(1);

    const again = UploadJob.open(job.journalPath, { port, dataDir });
    let records: ReturnType<typeof readJournal> = [];
    again.on((e) => e.type === 'status' && e.status === 'confirming' && (records = readJournal(again.journalPath)));
    const result = await again.run();
    const budgets = records.filter((r) => r.t === 'budget');
    const compressed = records.find((r) => r.t === 'compressed');
    expect(budgets).toEqual(first);
    expect(compressed?.t === 'compressed' && compressed.size).toBe(first[0]?.t === 'budget' ? first[0].size : -1);
    // One exam for the study: nothing the stopped create may have left behind stays.
    expect((await examsNamed(client, 'stop-create')).map((e) => e.id)).toEqual([result.exam_id]);
    expectStored(result.exam_id, files);
  });

  it('cancel while compressing removes the archive and creates no exam', async () => {
    const root = ctx.folder('cancel');
    const files = await phantomFiles(root, 40);
    const { port } = connect(ctx.emulator, 'pro');
    const plan = {
      ...(await planUpload({ root, fields: { name: 'cancel-compress' }, files, mode: 'zip' })),
      compress: true,
    };
    const dataDir = ctx.dataDir();
    let created = 0;
    const job = UploadJob.create(plan, {
      port: { ...port, createExam: (i, o) => (created++, port.createExam(i, o)) },
      dataDir,
    });
    // Cancelled the moment compressing starts (a progress event can come too late on a fast
    // machine: 40 slices may be deflated before the first one is emitted).
    let cancelling: Promise<void> | undefined;
    job.on((e) => {
      if (e.type === 'status' && e.status === 'compressing') cancelling ??= job.cancel();
    });
    const err = await failure(job.run());
    await cancelling;
    expect(err.code).toBe('cancelled');
    expect(job.phase).toBe('cancelled');
    expect(created).toBe(0);
    expect(existsSync(archivePathOf(dataDir, job.jobId))).toBe(false);
  });
});
