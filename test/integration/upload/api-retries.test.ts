// One retry layer for API calls: the API client's. Under a persistent 500 an idempotent call of the
// engine (confirm) reaches the service at most 6 times, and the job stops resumably.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UploadJob } from '@main/core/upload/job/engine';
import { UploadError } from '@main/core/upload/ports/upload-errors';
import { planUpload } from '@main/core/upload/plan/plan';
import { connect, FAST, makeFiles, uploadScene } from '../../support/harness/upload-harness';

type Armed = { armed: { target: string; mode: string; count: number; match?: string }[] };

describe('upload engine: API retries', () => {
  const ctx = uploadScene('sb-api-retries-');
  const { dataDir } = ctx;

  it('makes at most 6 HTTP attempts of an idempotent call under a persistent 500, then stops resumably', async () => {
    const root = join(ctx.scratch, 'files');
    mkdirSync(root);
    const files = makeFiles(root, 2, 4000);
    const { port } = connect(ctx.emulator, 'pro');
    const plan = await planUpload({ root, fields: { name: 'persistent 500' }, files, mode: 'files' });
    const armed = 1000;
    await ctx.emulator.control('POST', '/faults', { target: 'api', mode: 'error500', count: armed, match: '/confirm' });
    const notices: string[] = [];
    const job = UploadJob.create(plan, { port, dataDir: dataDir(), options: FAST });
    job.on((e) => {
      if (e.type === 'notice') notices.push(e.code);
    });
    const err: unknown = await job.run().then(
      () => null,
      (e: unknown) => e,
    );
    const { armed: left } = await ctx.emulator.control<Armed>('GET', '/faults');
    await ctx.emulator.control('DELETE', '/faults');

    expect(err).toBeInstanceOf(UploadError);
    expect((err as UploadError).resumable).toBe(true);
    const attempts = armed - (left.find((f) => f.match === '/confirm')?.count ?? armed);
    expect(attempts).toBeGreaterThan(1); // it was retried…
    expect(attempts).toBeLessThanOrEqual(6); // …by one layer only
    // Each retry was shown to the user, once per wait.
    expect(notices.filter((c) => c === 'api_retry')).toHaveLength(attempts - 1);

    // With the service well again, the same job finishes the same exam.
    const result = await job.run();
    expect(result.status).toBe('ready');
  });
});
