// A time-out answered by a real server (408 "the request took too long", 504 from a gateway) is a
// transient failure: the API client repeats a call that is safe to repeat, the job stops resumably
// with words about time, the partial exam stays on the service, and the next run finishes it.
// The answers come from a real HTTP proxy in front of the emulator that answers the status itself.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@main/core/api';
import { apiFailure, ApiError } from '@main/core/api/http/api-errors';
import { examsPortFromClient } from '@main/core/upload/ports/api-port';
import { UploadJob } from '@main/core/upload/job/engine';
import { planUpload } from '@main/core/upload/plan/plan';
import { UploadError } from '@main/core/upload/ports/upload-errors';
import { LostAnswerProxy } from '../../support/network/lost-answer-proxy';
import { FAST, makeFiles, uploadScene } from '../../support/harness/upload-harness';

describe('upload engine: time-outs answered by the server', () => {
  const ctx = uploadScene('sb-timeout-answers-');
  let proxy: LostAnswerProxy;
  beforeAll(async () => {
    proxy = await LostAnswerProxy.start(ctx.emulator.info.base_url);
  });
  afterAll(async () => {
    await proxy.stop();
  });

  const clientThroughProxy = () =>
    createApiClient({
      baseUrl: proxy.baseUrl,
      apiKey: ctx.emulator.info.keys.pro,
      retry: { maxAttempts: 3, baseMs: 10, capMs: 50 },
    });

  for (const status of [408, 504]) {
    it(`a ${status} on confirm stops the job resumably, keeps the exam, and the next run finishes it`, async () => {
      const root = join(ctx.scratch, `files-${status}`);
      mkdirSync(root);
      const files = makeFiles(root, 2, 4000);
      const client = clientThroughProxy();
      const port = examsPortFromClient(client);
      const plan = await planUpload({ root, fields: { name: `timeout ${status}` }, files, mode: 'files' });
      proxy.answerNext({ method: 'POST', path: /\/confirm$/, status, count: 100 });
      const job = UploadJob.create(plan, { port, dataDir: join(ctx.scratch, `data-${status}`), options: FAST });
      const err: unknown = await job.run().then(
        () => null,
        (e: unknown) => e,
      );
      const answered = proxy.answered.filter((a) => a.status === status).length;
      proxy.clearRules();

      expect(err).toBeInstanceOf(UploadError);
      expect((err as UploadError).code).toBe('network');
      expect((err as UploadError).resumable).toBe(true);
      expect((err as UploadError).message).toContain('did not answer in time');
      // confirm is safe to repeat: the client asked again before giving up.
      expect(answered).toBeGreaterThan(1);
      // The exam the job made is still there, not deleted as a refused one would be.
      const examId = job.examId;
      expect(examId).toBeTruthy();
      const held = await client.exams.get(examId as string);
      expect(held.id).toBe(examId);

      const result = await job.run();
      expect(result.status).toBe('ready');
      expect(result.exam_id).toBe(examId);
    });
  }

  it('the client classes a 408 on a call not safe to repeat as a time-out, without repeating it', async () => {
    const client = clientThroughProxy();
    proxy.answerNext({ method: 'POST', path: /\/exams$/, status: 408, count: 5 });
    const before = proxy.answered.length;
    const err: unknown = await client.exams.create({ name: 'never made', upload_mode: 'files', files: [] }).then(
      () => null,
      (e: unknown) => e,
    );
    proxy.clearRules();
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('timeout');
    expect((err as ApiError).status).toBe(408);
    expect((err as ApiError).transient).toBe(true);
    expect(apiFailure(err as ApiError)).toEqual({ class: 'transient', cause: 'timeout' });
    expect(proxy.answered.length - before).toBe(1);
  });
});
