import { appendFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UploadJob } from '@main/core/upload/job/engine';
import { findFolderJobs } from '@main/core/upload/state/job-store';
import { readJournal } from '@main/core/upload/journal/journal';
import { planUpload } from '@main/core/upload/plan/plan';
import type { ExamsPort } from '@main/core/upload/ports/ports';
import {
  connect,
  examsNamed,
  expectedHashes,
  failure,
  FAST,
  makeFiles,
  nextEvent,
  recording,
  storedHashes,
  uploadScene,
} from '../../support/harness/upload-harness';

describe('upload engine: crashes, interruptions and changed files', () => {
  // Short-lived upload URLs (2 s) to test a resume after they expired.
  const ctx = uploadScene('sb-recovery-', { urlTtl: 2 });
  const { folder, dataDir } = ctx;

  it('never leaves two exams when the process dies between sending the create and journaling its answer', async () => {
    const root = folder('crash-creating');
    const files = makeFiles(root, 4, 10_000);
    const { client, port } = connect(ctx.emulator, 'pro');
    // The create reaches the service, then the "process dies" before the answer is written down.
    let orphanId = '';
    const crashing: ExamsPort = {
      ...port,
      createExam: async (input, o) => {
        orphanId = (await port.createExam(input, o)).id;
        throw new Error('simulated crash after POST /exams');
      },
    };
    const plan = await planUpload({ root, fields: { name: 'crash creating', patient_id: 'X9' }, files, mode: 'files' });
    const first = UploadJob.create(plan, { port: crashing, dataDir: dataDir(), options: FAST });
    expect((await failure(first.run())).resumable).toBe(true);
    expect(first.phase).toBe('creating');
    expect(await examsNamed(client, 'crash creating')).toHaveLength(1);

    const notices: string[] = [];
    const resumed = UploadJob.open(first.journalPath, { port, dataDir: dataDir(), options: FAST });
    resumed.on((e) => {
      if (e.type === 'notice') notices.push(e.code);
    });
    const result = await resumed.run();
    expect(notices).toContain('orphan_removed');
    const exams = await examsNamed(client, 'crash creating');
    expect(exams).toEqual([expect.objectContaining({ id: result.exam_id, status: 'ready', file_count: 4 })]);
    expect(result.exam_id).not.toBe(orphanId);
  });

  it('resumes a stopped job on the same exam, re-sending only files that were in flight', async () => {
    const root = folder('stop-resume');
    const files = makeFiles(root, 10, 100_000);
    const { client, port } = connect(ctx.emulator, 'pro');
    const rec = recording(port);
    const plan = await planUpload({ root, fields: { name: 'stop resume' }, files, mode: 'files' });
    // About 1 s in total at 1 MB/s: stop after three files are stored.
    const job = UploadJob.create(plan, {
      port: rec.port,
      dataDir: dataDir(),
      options: { ...FAST, bandwidthLimit: 1_000_000, concurrency: 2 },
    });
    let done = 0;
    job.on((e) => {
      if (e.type === 'file' && e.progress.state === 'done' && ++done === 3) void job.stop();
    });
    const err = await failure(job.run());
    expect(err.code).toBe('interrupted');
    expect(err.resumable).toBe(true);
    const examId = job.examId;
    const stored = job.filesDone;
    expect(stored).toBeGreaterThanOrEqual(3);

    const again = UploadJob.open(findFolderJobs(dataDir(), root).unfinished ?? '', {
      port: rec.port,
      dataDir: dataDir(),
      options: FAST,
    });
    const result = await again.run();
    expect(result).toMatchObject({ exam_id: examId, resumed: true, api_calls: 1 }); // confirm only
    // Only files not journaled as stored go again (those in flight at the stop among them).
    expect(result.bytes_sent).toBeGreaterThan(0);
    expect(result.bytes_sent).toBeLessThanOrEqual(plan.bytes - stored * 100_000);
    expect(await examsNamed(client, 'stop resume')).toHaveLength(1);
    const created = rec.created[0];
    if (created) expect(await storedHashes(created)).toEqual(expectedHashes(files));
  });

  it('replaces the exam on resume when its upload URLs expired meanwhile', async () => {
    const root = folder('expired-resume');
    const files = makeFiles(root, 6, 60_000);
    const { client, port } = connect(ctx.emulator, 'pro');
    const plan = await planUpload({ root, fields: { name: 'expired resume' }, files, mode: 'files' });
    const job = UploadJob.create(plan, {
      port,
      dataDir: dataDir(),
      options: { ...FAST, bandwidthLimit: 300_000, concurrency: 1 },
    });
    void nextEvent(job.on.bind(job), (e) => e.type === 'file' && e.progress.state === 'done').then(() => job.stop());
    await failure(job.run());
    const firstExam = job.examId;
    await new Promise((r) => setTimeout(r, 2500)); // the 2 s URLs are now expired
    const notices: string[] = [];
    const again = UploadJob.open(job.journalPath, { port, dataDir: dataDir(), options: FAST });
    again.on((e) => {
      if (e.type === 'notice') notices.push(e.code);
    });
    const result = await again.run();
    expect(notices).toContain('exam_recreated');
    expect(result.exam_id).not.toBe(firstExam);
    expect(await examsNamed(client, 'expired resume')).toEqual([
      expect.objectContaining({ id: result.exam_id, status: 'ready', storage: plan.bytes }),
    ]);
  });

  it('fails plainly, naming the file, when a file changed after planning; no exam is left', async () => {
    const root = folder('changed-before');
    const files = makeFiles(root, 5, 10_000);
    const { client, port } = connect(ctx.emulator, 'pro');
    const plan = await planUpload({ root, fields: { name: 'changed before' }, files, mode: 'files' });
    appendFileSync(files[3]?.path ?? '', 'more');
    const err = await failure(UploadJob.create(plan, { port, dataDir: dataDir() }).run());
    expect(err.code).toBe('file_changed');
    expect(err.message).toContain('series1/IMG00003.dcm');
    expect(err.resumable).toBe(false);
    expect(await examsNamed(client, 'changed before')).toHaveLength(0);
  });

  it('notices a file replaced with same-size content during the upload and removes the partial exam', async () => {
    const root = folder('changed-during');
    const files = makeFiles(root, 8, 50_000);
    const { client, port } = connect(ctx.emulator, 'pro');
    const plan = await planUpload({ root, fields: { name: 'changed during' }, files, mode: 'files' });
    const job = UploadJob.create(plan, {
      port,
      dataDir: dataDir(),
      options: { ...FAST, bandwidthLimit: 400_000, concurrency: 1 },
    });
    const victim = files[6]?.path ?? '';
    void nextEvent(job.on.bind(job), (e) => e.type === 'file' && e.progress.state === 'done').then(() => {
      writeFileSync(victim, Buffer.alloc(50_006, 7));
      utimesSync(victim, new Date(), new Date(Date.now() + 5000));
    });
    const err = await failure(job.run());
    expect(err.code).toBe('file_changed');
    expect(err.message).toContain('series1/IMG00006.dcm');
    expect(err.message).toContain('partial exam was removed');
    expect(await examsNamed(client, 'changed during')).toHaveLength(0);
    const summary = readJournal(job.journalPath);
    expect(summary).toEqual([expect.objectContaining({ t: 'summary', outcome: 'failed', code: 'file_changed' })]);
  });

  it('fails plainly when a planned file was deleted', async () => {
    const root = folder('deleted');
    const files = makeFiles(root, 3, 1000);
    const { port } = connect(ctx.emulator, 'pro');
    const plan = await planUpload({ root, fields: { name: 'deleted file' }, files, mode: 'zip' });
    rmSync(files[1]?.path ?? '');
    const err = await failure(UploadJob.create(plan, { port, dataDir: dataDir() }).run());
    expect(err.code).toBe('file_changed');
    expect(err.message).toContain('"series1/IMG00001.dcm" was deleted after the upload was planned.');
  });
});
