// An extra take survives kill -9 of `scanbridge serve` in the middle of its upload: after a restart
// on the same folders the queue resumes the job from its journal, sends what is missing to the SAME
// take (the index the service gave before the crash) and confirms it. The service ends with exactly
// one new extra take whose every stored object is byte-for-byte the file on disk.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TakesView, UploadJobView } from '@preload/contract';
import { createApiClient } from '@main/core/api';
import { writeCbctExport } from '../../fixtures/dicom/generate';
import { fileSha, sha256 } from '../../support/harness/upload-harness';
import { serveScene, type Served } from '../../support/harness/agent-processes';

const ctx = serveScene('sb-takes-kill-');

/** `scanbridge serve` on these folders, with the Pro key for the session. */
const serve = (dataDir: string, configDir: string, renderer: string): Promise<Served> =>
  ctx.serve(
    ['--data-dir', dataDir, '--renderer', renderer],
    {
      SCANBRIDGE_API_URL: ctx.emulator.info.base_url,
      // The key for this session (no keychain here): given again to the restarted process.
      SCANBRIDGE_API_KEY: ctx.emulator.info.keys.pro,
      SCANBRIDGE_CONFIG_DIR: configDir,
      DBUS_SESSION_BUS_ADDRESS: 'disabled:',
    },
    30_000,
  );

async function until<T>(
  what: string,
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  timeoutMs: number,
  everyMs = 100,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The take's journal: its planned files and, once POST /extras answered, the take and its URLs. */
function takeJournal(dataDir: string): {
  files: { name: string; path: string }[];
  take: string | null;
  urls: string[];
} {
  const jobs = join(dataDir, 'jobs');
  const names = readdirSync(jobs).filter((n) => n.endsWith('.jsonl'));
  expect(names).toHaveLength(1);
  let files: { name: string; path: string }[] = [];
  let take: string | null = null;
  let urls: string[] = [];
  for (const line of readFileSync(join(jobs, names[0] ?? ''), 'utf8').split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line) as {
      t: string;
      files?: { name: string; path: string }[];
      exam_id?: string;
      urls?: string[];
      target?: unknown;
    };
    if (r.t === 'planned') {
      expect(r.target).toMatchObject({ kind: 'extra', label: 'Segundo escaneo' });
      files = r.files ?? [];
    }
    if (r.t === 'created') {
      take = r.exam_id ?? null;
      urls = r.urls ?? [];
    }
  }
  return { files, take, urls };
}

describe('extra take through scanbridge serve', () => {
  it('kill -9 mid-upload, restart: the same take completes once, with every byte', async () => {
    const client = createApiClient({ baseUrl: ctx.emulator.info.base_url, apiKey: ctx.emulator.info.keys.pro });
    const seed = Buffer.from('first take, uploaded earlier by another computer');
    const created = await client.exams.create({
      name: 'Kill test — Muñoz',
      exam_type: 'cbct',
      files: [{ name: 'main/IMG1.dcm', size: seed.length }],
    });
    const put = await fetch(created.upload_urls?.[0]?.url ?? '', { method: 'PUT', body: seed });
    expect(put.ok).toBe(true);
    await client.exams.confirm(created.id);
    const storageBefore = (await client.exams.get(created.id)).storage?.bytes ?? 0;

    const ex = await writeCbctExport(join(ctx.scratch, 'SECOND_SCAN'), {
      volumeSlices: 30,
      scoutSlices: 2,
      rows: 256,
      cols: 256,
      dicomdir: false,
    });
    const renderer = join(ctx.scratch, 'dist');
    mkdirSync(renderer);
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>ScanBridge</title>');
    const dataDir = join(ctx.scratch, 'data');
    const configDir = join(ctx.scratch, 'config');

    const first = await serve(dataDir, configDir, renderer);
    // Slow enough (300 kB/s, two at a time) to be killed part way through.
    await first.rpc('settings:update', { upload: { bandwidth_limit: 300_000, concurrency: 2 } });
    const before = await first.rpc<TakesView>('takes:get', { exam_id: created.id });
    expect(before).toMatchObject({ exam_type: 'cbct', extra_series: [], blocked: null });
    const { job_id } = await first.rpc<{ job_id: string }>('takes:add', {
      exam_id: created.id,
      label: 'Segundo escaneo',
      source: { kind: 'folder', path: ex.root },
    });
    const part = await until(
      'some files stored',
      async () => (await first.rpc<UploadJobView[]>('uploads:list')).find((j) => j.id === job_id),
      (j) => j !== undefined && j.files_done >= 4,
      60_000,
      50,
    );
    expect(part?.files_done).toBeLessThan(ex.files);
    expect(part?.extra_take).toEqual({ exam_id: created.id, exam_name: 'Kill test — Muñoz', label: 'Segundo escaneo' });
    const exited = new Promise<NodeJS.Signals | null>((r) => first.child.once('exit', (_c, s) => r(s)));
    first.child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const journal = takeJournal(dataDir);
    expect(journal.take).toBe(`${created.id}#1`);
    expect(journal.files).toHaveLength(ex.files);
    const midway = (await client.exams.get(created.id)).extra_series ?? [];
    expect(midway.map((x) => [x.index, x.status])).toEqual([[1, 'uploading']]);

    const second = await serve(dataDir, configDir, renderer);
    await second.rpc('settings:update', { upload: { bandwidth_limit: 0 } });
    const done = await until(
      'the take ready',
      async () => (await second.rpc<UploadJobView[]>('uploads:list')).find((j) => j.id === job_id),
      (j) => j?.phase === 'ready' || j?.phase === 'failed',
      90_000,
    );
    expect(done).toMatchObject({
      phase: 'ready',
      exam_id: created.id,
      files_done: ex.files,
      files_total: ex.files,
      error: null,
    });

    // Exactly one extra, the one announced before the crash, with every byte.
    const exam = await client.exams.get(created.id);
    expect((exam.extra_series ?? []).map((x) => [x.index, x.label, x.status, x.file_count, x.storage_bytes])).toEqual([
      [1, 'Segundo escaneo', 'ready', ex.files, ex.bytes],
    ]);
    expect(exam.storage?.bytes).toBe(storageBefore + ex.bytes);
    expect(journal.urls).toHaveLength(journal.files.length);
    for (const [i, url] of journal.urls.entries()) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(fileSha(journal.files[i]?.path ?? ''));
    }
    const view = await second.rpc<TakesView>('takes:get', { exam_id: created.id });
    expect(view).toMatchObject({ pending_jobs: 0, blocked: null });
    second.child.kill('SIGTERM');
  }, 180_000);
});
