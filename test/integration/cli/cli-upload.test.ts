// `scanbridge upload` end to end: the real bin, spawned as a user would run it, on DCMTK files,
// against a real emulator — including kill -9 in the middle of an upload.
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@main/core/api';
import { type CbctExport, writeCbctExport } from '../../fixtures/dicom/generate';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { fileSha, sha256 } from '../../support/harness/upload-harness';
import { type CliRun, startCli } from '@support/harness/cli-process';

type Run = CliRun;

let emu: EmulatorProcess;
let tmp: string;

function env(key: keyof EmulatorProcess['info']['keys'], dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    SCANBRIDGE_API_URL: emu.info.base_url,
    SCANBRIDGE_API_KEY: emu.info.keys[key],
    SCANBRIDGE_DATA_DIR: dataDir,
  };
}

const start = startCli;

function run(args: string[], e: NodeJS.ProcessEnv): Promise<Run> {
  return start(args, e).done;
}

/** Indices the journal(s) under `dataDir` record as stored, and the exam they were created on. */
function journalState(dataDir: string): { examId: string | null; done: number; urls: string[] } {
  const jobs = join(dataDir, 'jobs');
  const out = { examId: null as string | null, done: 0, urls: [] as string[] };
  if (!existsSync(jobs)) return out;
  for (const name of readdirSync(jobs)) {
    if (!name.endsWith('.jsonl')) continue;
    for (const line of readFileSync(join(jobs, name), 'utf8').split('\n')) {
      try {
        const r = JSON.parse(line) as { t: string; exam_id?: string; i?: number[]; urls?: string[] };
        if (r.t === 'created') {
          out.examId = r.exam_id ?? null;
          out.urls = r.urls ?? [];
          out.done = 0;
        }
        if (r.t === 'done') out.done += r.i?.length ?? 0;
      } catch {
        // torn line
      }
    }
  }
  return out;
}

async function killAfterStored(
  child: ChildProcess,
  dataDir: string,
  files: number,
): Promise<{ examId: string; urls: string[] }> {
  for (let i = 0; i < 400; i++) {
    const s = journalState(dataDir);
    if (s.examId && s.done >= files) {
      child.kill('SIGKILL');
      return { examId: s.examId, urls: s.urls };
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  child.kill('SIGKILL');
  throw new Error('the upload did not get far enough to be killed');
}

function relativeNames(ex: CbctExport): string[] {
  return ex.series.flatMap((s) => s.files.map((f) => relative(ex.root, f.path).split(sep).join('/'))).sort();
}

beforeAll(async () => {
  emu = await EmulatorProcess.start();
  tmp = mkdtempSync(join(tmpdir(), 'sb-cli-upload-'));
});

afterAll(async () => {
  await emu.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

describe('scanbridge upload', () => {
  it('uploads an export as one exam, prefilled from DICOM, and prints one JSON line', async () => {
    const ex = await writeCbctExport(join(tmp, 'happy'), { volumeSlices: 10, scoutSlices: 2 });
    const r = await run(['upload', ex.root], env('pro', join(tmp, 'data-happy')));
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(out).toMatchObject({ status: 'ready', files: ex.files, bytes: ex.bytes });
    expect(r.stderr).toContain('Creating the exam');
    expect(r.stderr).toContain('is ready');
    const client = createApiClient({ baseUrl: emu.info.base_url, apiKey: emu.info.keys.pro });
    const exam = await client.exams.get(String(out['exam_id']));
    expect(exam).toMatchObject({
      status: 'ready',
      name: 'CBCT maxilar 2026-03-02',
      exam_type: 'cbct',
      patient_name: 'JUAN CARLOS MUÑOZ',
      patient_id: '12345678Z',
      birth_date: '1980-01-31',
      file_count: ex.files,
    });
    expect(exam.storage?.bytes).toBe(ex.bytes);

    // Running it again on the same files reports the same exam instead of making a second one.
    const again = await run(['upload', ex.root], env('pro', join(tmp, 'data-happy')));
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ exam_id: out['exam_id'], status: 'ready' });
    expect(again.stderr).toContain('already uploaded');
  });

  it('resumes the same exam after kill -9 mid-upload: one ready exam with every byte', async () => {
    const ex = await writeCbctExport(join(tmp, 'killed'), {
      volumeSlices: 40,
      scoutSlices: 2,
      rows: 256,
      cols: 256,
      dicomdir: false,
    });
    const dataDir = join(tmp, 'data-killed');
    const slow = start(
      ['upload', ex.root, '--limit-rate', '1M', '--concurrency', '2', '--compress', 'never'],
      env('clinica', dataDir),
    );
    const killed = await killAfterStored(slow.child, dataDir, 8);
    const k = await slow.done;
    expect(k.code).toBeNull(); // died by signal
    expect(k.stdout).toBe('');

    const r = await run(['upload', ex.root], env('clinica', dataDir));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Resuming');
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      exam_id: killed.examId,
      status: 'ready',
      files: ex.files,
      bytes: ex.bytes,
      resumed: true,
    });

    const client = createApiClient({ baseUrl: emu.info.base_url, apiKey: emu.info.keys.clinica });
    const list = await client.exams.list({ limit: 100 });
    expect(list.exams.map((e) => e.id)).toEqual([killed.examId]);
    expect(list.exams[0]?.storage?.bytes).toBe(ex.bytes);
    // Every stored object is byte-for-byte the file on disk.
    const names = relativeNames(ex);
    expect(killed.urls).toHaveLength(names.length);
    for (const [i, url] of killed.urls.entries()) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(fileSha(join(ex.root, names[i] ?? '')));
    }
  });

  it('after kill -9, a file changed since planning fails the rerun plainly and removes the partial exam', async () => {
    const ex = await writeCbctExport(join(tmp, 'changed'), {
      volumeSlices: 30,
      scoutSlices: 2,
      rows: 256,
      cols: 256,
      dicomdir: false,
    });
    const dataDir = join(tmp, 'data-changed');
    const slow = start(
      [
        'upload',
        ex.root,
        '--limit-rate',
        '1M',
        '--concurrency',
        '2',
        '--compress',
        'never',
        '--name',
        'changed export',
      ],
      env('ultra', dataDir),
    );
    const killed = await killAfterStored(slow.child, dataDir, 3);
    await slow.done;
    const victim = ex.series[0]?.files[20]?.path ?? '';
    appendFileSync(victim, 'extra bytes');

    const r = await run(['upload', ex.root], env('ultra', dataDir));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(relative(ex.root, victim).split(sep).join('/'));
    expect(r.stderr).toContain('changed after the upload was planned');
    const client = createApiClient({ baseUrl: emu.info.base_url, apiKey: emu.info.keys.ultra });
    expect(await client.exams.get(killed.examId).catch((e: { code?: string }) => e.code)).toBe('not_found');

    // The next run plans afresh with the files as they are now.
    const fresh = await run(['upload', ex.root, '--name', 'changed export'], env('ultra', dataDir));
    expect(fresh.code).toBe(0);
    expect(JSON.parse(fresh.stdout)).toMatchObject({ status: 'ready', files: ex.files, resumed: false });
  });

  it('Ctrl+C stops resumably (exit 130) and the next run finishes the same exam', async () => {
    const ex = await writeCbctExport(join(tmp, 'sigint'), {
      volumeSlices: 24,
      scoutSlices: 1,
      rows: 256,
      cols: 256,
      dicomdir: false,
    });
    const dataDir = join(tmp, 'data-sigint');
    const slow = start(
      ['upload', ex.root, '--limit-rate', '1M', '--concurrency', '2', '--compress', 'never'],
      env('sandbox', dataDir),
    );
    let examId: string | null = null;
    for (let i = 0; i < 400 && !examId; i++) {
      const s = journalState(dataDir);
      if (s.done >= 3) examId = s.examId;
      else await new Promise((r) => setTimeout(r, 25));
    }
    slow.child.kill('SIGINT');
    const stopped = await slow.done;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('Using a SANDBOX key');
    expect(stopped.stderr).toContain('interrupted. Run the same command again');
    const r = await run(['upload', ex.root], env('sandbox', dataDir));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ exam_id: examId, status: 'ready', resumed: true });
  });

  it('--cancel deletes the half-made exam of an interrupted upload', async () => {
    const ex = await writeCbctExport(join(tmp, 'cancel'), {
      volumeSlices: 12,
      scoutSlices: 1,
      rows: 256,
      cols: 256,
      dicomdir: false,
    });
    const dataDir = join(tmp, 'data-cancel');
    const slow = start(
      ['upload', ex.root, '--limit-rate', '256k', '--compress', 'never', '--name', 'cancel via cli'],
      env('sandbox', dataDir),
    );
    const killed = await killAfterStored(slow.child, dataDir, 0);
    await slow.done;
    const r = await run(['upload', ex.root, '--cancel'], env('sandbox', dataDir));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`exam ${killed.examId} was deleted`);
    const client = createApiClient({ baseUrl: emu.info.base_url, apiKey: emu.info.keys.sandbox });
    expect(await client.exams.get(killed.examId).catch((e: { code?: string }) => e.code)).toBe('not_found');
    const again = await run(['upload', ex.root, '--cancel'], env('sandbox', dataDir));
    expect(again.stderr).toContain('no interrupted upload');
  });

  it('refuses a name over 200 characters before creating any exam', async () => {
    const ex = await writeCbctExport(join(tmp, 'long-name'), { volumeSlices: 2, scoutSlices: 1 });
    const r = await run(['upload', ex.root, '--name', 'n'.repeat(201)], env('free', join(tmp, 'data-long')));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('at most 200');
    const client = createApiClient({ baseUrl: emu.info.base_url, apiKey: emu.info.keys.free });
    expect((await client.exams.list({})).total).toBe(0);
  });

  it('answers usage errors with exit code 2 and a missing folder with 1', async () => {
    const e = env('free', join(tmp, 'data-usage'));
    expect((await run(['upload'], e)).code).toBe(2);
    expect((await run(['upload', tmp, '--mode', 'tar'], e)).code).toBe(2);
    const missing = await run(['upload', join(tmp, 'nope')], e);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('folder not found');
  });
});
