// Upload journals damaged after a crash or by the disk (emptied, garbled, a middle line torn), then
// `scanbridge upload` run again on the same study against a real emulator: what the damaged
// journal made is found on the service, the rerun says what it found and what it did, and the
// study ends as exactly one ready exam, never a silent second one.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createApiClient } from '@main/core/api';
import { cliBin, repoRoot } from '@support/repo-paths';
import { waitFor } from '@support/harness/watch-harness';
import { writeCbctExport } from '../../fixtures/dicom/generate';
import { EmulatorProcess } from '../../support/emulator/emulator';

type Run = { code: number | null; stdout: string; stderr: string };

let emu: EmulatorProcess;
let client: ApiClient;
let tmp: string;

function start(args: string[], dataDir: string): { child: ChildProcess; done: Promise<Run> } {
  const child = spawn(process.execPath, [cliBin, ...args], {
    cwd: repoRoot,
    env: {
      ...process.env,
      SCANBRIDGE_API_URL: emu.info.base_url,
      SCANBRIDGE_API_KEY: emu.info.keys.ultra,
      SCANBRIDGE_DATA_DIR: dataDir,
      SCANBRIDGE_CONFIG_DIR: `${dataDir}-config`,
      LANG: 'en_US.UTF-8',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return { child, done: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))) };
}

function journals(dataDir: string): string[] {
  const dir = join(dataDir, 'jobs');
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => n.endsWith('.jsonl'))
        .map((n) => join(dir, n))
    : [];
}

async function examsOf(patientId: string): Promise<{ id: string; status: string | null | undefined }[]> {
  const list = await client.exams.list({ limit: 100 });
  return list.exams.filter((e) => e.patient_id === patientId).map((e) => ({ id: e.id, status: e.status }));
}

/** An upload killed (SIGKILL) once its journal holds its exam and a stored file; returns the journal. */
async function killedMidUpload(root: string, dataDir: string): Promise<string> {
  const run = start(['upload', root, '--mode', 'files', '--limit-rate', '300000'], dataDir);
  await waitFor(
    () => journals(dataDir).some((j) => readFileSync(j, 'utf8').includes('"t":"done"')),
    30_000,
    'a stored file in the journal',
  );
  run.child.kill('SIGKILL');
  await run.done;
  const [journal] = journals(dataDir);
  if (!journal) throw new Error('no journal');
  return journal;
}

const study = (name: string, patientId: string) =>
  writeCbctExport(join(tmp, name), {
    patientId,
    volumeSlices: 12,
    scoutSlices: 1,
    rows: 256,
    cols: 256,
    dicomdir: false,
  });

beforeAll(async () => {
  emu = await EmulatorProcess.start();
  client = createApiClient({ baseUrl: emu.info.base_url, apiKey: emu.info.keys.ultra });
  tmp = mkdtempSync(join(tmpdir(), 'sb-damaged-journal-'));
});

afterAll(async () => {
  await emu.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

describe('a damaged upload journal', () => {
  it('emptied after a crash: the half-made exam is found and removed, one ready exam, and it is said', async () => {
    const ex = await study('emptied', 'JRNEMPTY');
    const dataDir = join(tmp, 'data-emptied');
    const journal = await killedMidUpload(ex.root, dataDir);
    const [half] = await examsOf('JRNEMPTY');
    expect(half?.status).toBe('uploading');
    writeFileSync(journal, '');

    const r = await start(['upload', ex.root, '--mode', 'files'], dataDir).done;
    expect(r.code, r.stderr).toBe(0);
    const exams = await examsOf('JRNEMPTY');
    expect(exams).toHaveLength(1);
    expect(exams[0]?.status).toBe('ready');
    expect(r.stderr).toContain('An earlier upload journal of this folder was found damaged (moved aside as .damaged).');
    expect(r.stderr).toContain(`Removed the half-made exam(s) ${half?.id ?? ''} it left on the service.`);
    expect(existsSync(`${journal}.damaged`)).toBe(true);
  });

  it("a finished upload's journal garbled: the ready exam is the rerun's result, no second exam", async () => {
    const ex = await study('garbled', 'JRNGARBLED');
    const dataDir = join(tmp, 'data-garbled');
    const first = await start(['upload', ex.root, '--mode', 'files'], dataDir).done;
    expect(first.code, first.stderr).toBe(0);
    const examId = (JSON.parse(first.stdout.trim()) as { exam_id: string }).exam_id;
    const [journal] = journals(dataDir);
    if (!journal) throw new Error('no journal');
    const text = readFileSync(journal, 'utf8');
    // A few bytes overwritten in the middle of the summary line (a bad sector, a sync tool).
    writeFileSync(journal, `${text.slice(0, 20)}\u0000\u0000\u0000\u0000${text.slice(24)}`);

    const r = await start(['upload', ex.root, '--mode', 'files'], dataDir).done;
    expect(r.code, r.stderr).toBe(0);
    expect(await examsOf('JRNGARBLED')).toEqual([{ id: examId, status: 'ready' }]);
    expect((JSON.parse(r.stdout.trim()) as { exam_id: string }).exam_id).toBe(examId);
    expect(r.stderr).toContain(`The service already holds exam ${examId} of this study, ready`);
  });

  it('middle lines torn (the create and its answer lost, the plan and later lines whole): detected, the half-made exam removed', async () => {
    const ex = await study('torn', 'JRNTORN');
    const dataDir = join(tmp, 'data-torn');
    const journal = await killedMidUpload(ex.root, dataDir);
    const [half] = await examsOf('JRNTORN');
    const lines = readFileSync(journal, 'utf8').split('\n');
    const damaged = lines.map((l) => (/"t":"(creating|created)"/.test(l) ? l.slice(0, l.length / 2) : l));
    writeFileSync(journal, damaged.join('\n'));

    const r = await start(['upload', ex.root, '--mode', 'files'], dataDir).done;
    expect(r.code, r.stderr).toBe(0);
    const exams = await examsOf('JRNTORN');
    expect(exams).toHaveLength(1);
    expect(exams[0]?.status).toBe('ready');
    expect(r.stderr).toMatch(/The upload journal \S+ was found damaged \(line 2, 3 of \d+ unreadable\)\./);
    expect(r.stderr).toContain(`Removed the half-made exam(s) ${half?.id ?? ''}`);
  });
});
