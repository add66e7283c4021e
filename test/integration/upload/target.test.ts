// The extra-take target of the upload engine against the emulator: a take is created, filled and
// confirmed through the same engine as an exam; a resumed job keeps its take; an answer to
// POST /extras that never reached the journal does not lead to a second take; URLs that expire are
// not "fixed" by announcing another take; and a third take is refused by the service, plainly.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '@main/core/api';
import { UploadJob } from '@main/core/upload/job/engine';
import { UploadError } from '@main/core/upload/ports/upload-errors';
import { findFolderJobs } from '@main/core/upload/state/job-store';
import { planUpload } from '@main/core/upload/plan/plan';
import { ExamsPortError, type ExamFields, type ExamsPort } from '@main/core/upload/ports/ports';
import {
  extraTakePort,
  parseTakeHandle,
  takeHandle,
  TARGET_ENGINE_OPTIONS,
  type UploadTarget,
} from '@main/core/upload/state/target';
import {
  connect,
  expectedHashes,
  failure,
  FAST,
  makeFiles,
  sha256,
  uploadScene,
} from '../../support/harness/upload-harness';

describe('upload target: extra takes', () => {
  const ctx = uploadScene('sb-target-', { urlTtl: 3 });
  const { folder, dataDir } = ctx;
  let client: ApiClient;
  beforeAll(() => {
    client = connect(ctx.emulator, 'pro').client;
  });

  async function exam(name: string, type: 'cbct' | 'radiografia' = 'cbct'): Promise<string> {
    const c = await client.exams.create({ name, exam_type: type, files: [{ name: 'a.dcm', size: 3 }] });
    await fetch(c.upload_urls?.[0]?.url ?? '', { method: 'PUT', body: 'abc' });
    await client.exams.confirm(c.id);
    return c.id;
  }

  async function job(
    root: string,
    examId: string,
    label: string,
    port?: (p: ExamsPort) => ExamsPort,
    count = 6,
  ): Promise<{ job: UploadJob; fields: ExamFields; target: UploadTarget; files: ReturnType<typeof makeFiles> }> {
    const files = makeFiles(root, count, 20_000);
    const fields: ExamFields = { name: 'Take test', exam_type: 'cbct' };
    const target: UploadTarget = { kind: 'extra', exam_id: examId, label };
    const plan = await planUpload({ root, fields, files, mode: 'files' });
    const base = extraTakePort(client, target, fields);
    const j = UploadJob.create(
      plan,
      { port: port ? port(base) : base, dataDir: dataDir(), options: { ...FAST, ...TARGET_ENGINE_OPTIONS } },
      target,
    );
    return { job: j, fields, target, files };
  }

  it('handles round-trip', () => {
    expect(parseTakeHandle(takeHandle('ex_a#b', 2))).toEqual({ examId: 'ex_a#b', index: 2 });
    expect(parseTakeHandle('ex_123')).toBeNull();
  });

  it('uploads a take through the engine and confirms it with its label; a reopened job knows its target', async () => {
    const examId = await exam('take happy');
    const root = folder('happy');
    const { job: j, files } = await job(root, examId, 'Segunda toma');
    const result = await j.run();
    expect(result.exam_id).toBe(takeHandle(examId, 1));
    const e = await client.exams.get(examId);
    const bytes = files.reduce((s, f) => s + 20_000 + Number(f.name.slice(-9, -4)), 0);
    expect(e.extra_series?.map((x) => [x.index, x.label, x.status, x.file_count, x.storage_bytes])).toEqual([
      [1, 'Segunda toma', 'ready', 6, bytes],
    ]);
    await j.whenCompacted();
    // A take is not an upload of the folder as an exam: the CLI's folder lookup does not offer it.
    expect(findFolderJobs(dataDir(), root)).toEqual({ unfinished: null, finished: [] });
  });

  it('a job stopped after POST /extras resumes the same take (no second one), with every byte', async () => {
    const examId = await exam('take resumed');
    const root = folder('resumed');
    const urls: string[] = [];
    const {
      job: j,
      files,
      fields,
      target,
    } = await job(
      root,
      examId,
      'Toma reanudada',
      (p) => ({
        ...p,
        createExam: async (input, o) => {
          const c = await p.createExam(input, o);
          urls.push(...(c.upload_urls ?? []).map((u) => u.url));
          return c;
        },
      }),
      20,
    );
    const stopped = j.run().catch((e: unknown) => e);
    await new Promise<void>((resolve) => {
      const off = j.on((ev) => {
        if (ev.type === 'file' && ev.progress.state === 'done') {
          off();
          resolve();
        }
      });
    });
    await j.stop();
    expect(await stopped).toBeInstanceOf(UploadError);
    expect(j.examId).toBe(takeHandle(examId, 1));
    const again = UploadJob.open(j.journalPath, {
      port: extraTakePort(client, target, fields),
      dataDir: dataDir(),
      options: { ...FAST, ...TARGET_ENGINE_OPTIONS },
    });
    expect(again.target).toEqual(target);
    const r = await again.run();
    expect(r).toMatchObject({ exam_id: takeHandle(examId, 1), resumed: true, files: 20 });
    const e = await client.exams.get(examId);
    expect(e.extra_series?.map((x) => [x.index, x.status])).toEqual([[1, 'ready']]);
    const want = expectedHashes(files);
    const got = new Map<string, string>();
    for (const [i, f] of files.entries())
      got.set(f.name, sha256(new Uint8Array(await (await fetch(urls[i] ?? '')).arrayBuffer())));
    expect(got).toEqual(want);
  });

  it('an answer to POST /extras lost before the journal saw it fails the job plainly instead of announcing a second take', async () => {
    const examId = await exam('take lost answer');
    const root = folder('lost');
    const { job: j } = await job(root, examId, 'Toma perdida', (p) => ({
      ...p,
      // The take is made on the service, but its answer is lost (a crash or a cut connection).
      createExam: async (input, o) => {
        await p.createExam(input, o);
        throw new ExamsPortError('transient', 'connection reset');
      },
    }));
    const first = await failure(j.run());
    expect(first.resumable).toBe(true);
    const second = await failure(j.run());
    expect(second.resumable).toBe(false);
    expect(second.message).toContain('cannot be completed or removed');
    const e = await client.exams.get(examId);
    expect(e.extra_series?.map((x) => [x.index, x.status])).toEqual([[1, 'uploading']]);
  });

  it('expired upload links fail the take instead of announcing another one', async () => {
    const examId = await exam('take expired');
    const root = folder('expired');
    const { job: j } = await job(root, examId, 'Toma vencida');
    j.pause();
    const run = failure(j.run());
    await new Promise((r) => setTimeout(r, 3_500));
    j.resume();
    const err = await run;
    expect(err.code).toBe('urls_keep_expiring');
    expect((await client.exams.get(examId)).extra_series).toHaveLength(1);
  });

  it('the service refuses a take on a radiograph, and a third take', async () => {
    const radiograph = await exam('take radiograph', 'radiografia');
    const r = await job(folder('radiograph'), radiograph, 'No');
    expect((await failure(r.job.run())).code).toBe('rejected');
    expect((await client.exams.get(radiograph)).extra_series ?? []).toEqual([]);

    const full = await exam('take full');
    for (const label of ['Uno', 'Dos']) await job(folder(`full-${label}`), full, label).then((x) => x.job.run());
    const third = await job(folder('full-3'), full, 'Tres');
    const err = await failure(third.job.run());
    expect(err.code).toBe('rejected');
    expect((await client.exams.get(full)).extra_series?.map((x) => x.label)).toEqual(['Uno', 'Dos']);
  });
});
