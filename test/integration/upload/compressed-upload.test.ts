// Compressed zip mode against the emulator: a CBCT-like phantom deflated on worker threads into a
// private archive, declared with its exact size, and stored byte for byte; pause and cancel while
// compressing; the archive reused (not deflated again) when the job is reopened.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { archivePathOf } from '@main/core/upload/archive';
import { UploadJob, type UploadEvent } from '@main/core/upload/engine';
import { readJournal } from '@main/core/upload/journal';
import { planUpload } from '@main/core/upload/plan';
import { connect, failure, phantomFiles, uploadScene, zipStoredHashes } from '@support/upload-harness';

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

describe('compressed zip mode', () => {
  const ctx = uploadScene('sb-compress-');

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
    job.on((e) => {
      if (e.type === 'status') statuses.push(e.status);
      if (e.type === 'progress' && e.totals.compression?.state === 'compressing') compressing = e;
    });
    const result = await job.run();
    expect(statuses.slice(0, 3)).toEqual(['compressing', 'creating', 'transferring']);
    expect(compressing).not.toBeNull();
    const exam = await client.exams.get(result.exam_id);
    expect(exam).toMatchObject({ status: 'ready', upload_mode: 'zip', file_count: 40 });
    expect(exam.storage?.bytes).toBe(plan.bytes);
    const expected = new Map(files.map((f) => [f.name, sha(readFileSync(f.path))]));
    expect(
      zipStoredHashes(
        ctx.emulator,
        result.exam_id,
        files.map((f) => f.name),
      ),
    ).toEqual(expected);
    // The phantom deflates about 2×: what went on the wire is the archive, well under the study.
    expect(result.bytes_sent).toBeLessThan(plan.bytes * 0.6);
    const final = job.totals();
    expect(final.compression).toMatchObject({ state: 'sending', studyBytes: plan.bytes });
    expect(final.compression?.ratio ?? 0).toBeGreaterThan(1.6);
    // The archive is gone once the exam is ready.
    await job.whenCompacted();
    expect(existsSync(archivePathOf(ctx.dataDir(), job.jobId))).toBe(false);
  });

  it('pauses and resumes while compressing, and a reopened job reuses the archive instead of deflating again', async () => {
    const root = ctx.folder('pause');
    const files = await phantomFiles(root, 60);
    const { port } = connect(ctx.emulator, 'pro');
    const plan = { ...(await planUpload({ root, fields: { name: 'pause' }, files, mode: 'zip' })), compress: true };
    const dataDir = ctx.dataDir();
    const job = UploadJob.create(plan, { port, dataDir });
    const statuses: string[] = [];
    job.on((e) => e.type === 'status' && statuses.push(e.status));
    // Paused in the middle of compressing, then resumed.
    job.on((e) => {
      if (e.type === 'progress' && (e.totals.compression?.studyBytesDone ?? 0) > 0 && statuses.length === 1) {
        job.pause();
        job.resume();
      }
    });
    const running = job.run();
    // Stop once the archive is complete but before anything is sent: the next run must reuse it.
    const stopped = new Promise<void>((resolve) =>
      job.on((e) => {
        if (e.type === 'status' && e.status === 'creating') void job.stop().then(resolve);
      }),
    );
    await stopped;
    await running.catch(() => undefined);
    expect(statuses.slice(0, 4)).toEqual(['compressing', 'paused', 'compressing', 'creating']);
    const archive = archivePathOf(dataDir, job.jobId);
    const before = statSync(archive);
    const records = readJournal(job.journalPath);
    expect(records.filter((r) => r.t === 'compressed')).toHaveLength(1);

    const again = UploadJob.open(job.journalPath, { port, dataDir });
    const seen: string[] = [];
    again.on((e) => e.type === 'status' && seen.push(e.status));
    const result = await again.run();
    expect(seen).not.toContain('compressing');
    expect(statSync(archive, { throwIfNoEntry: false })).toBeUndefined();
    expect(before.size).toBeGreaterThan(0);
    expect(readJournal(again.journalPath).filter((r) => r.t === 'packed' && r.n === 0)).toHaveLength(0);
    const expected = new Map(files.map((f) => [f.name, sha(readFileSync(f.path))]));
    expect(
      zipStoredHashes(
        ctx.emulator,
        result.exam_id,
        files.map((f) => f.name),
      ),
    ).toEqual(expected);
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
