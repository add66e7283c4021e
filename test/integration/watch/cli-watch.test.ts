import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';
import { smallSeries, waitFor } from '../../support/harness/watch-harness';
import { repoRoot } from '@support/repo-paths';

const root = repoRoot;
let emulator: EmulatorProcess;
let scratch: string;
const running: ChildProcess[] = [];

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  scratch = mkdtempSync(join(tmpdir(), 'sb-cli-watch-'));
});
afterAll(async () => {
  for (const p of running) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  await emulator?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

type Cli = { child: ChildProcess; stdout: () => string[]; stderr: () => string; exited: Promise<number | null> };

function startCli(args: string[], dataDir: string): Cli {
  const child = spawn(process.execPath, ['main/bin/scanbridge.mjs', ...args], {
    cwd: root,
    env: {
      ...process.env,
      SCANBRIDGE_API_URL: emulator.info.base_url,
      SCANBRIDGE_API_KEY: emulator.info.keys.pro,
      SCANBRIDGE_DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, stdout: () => out.split('\n').filter((l) => l !== ''), stderr: () => err, exited };
}

async function stop(cli: Cli): Promise<number | null> {
  cli.child.kill('SIGTERM');
  return cli.exited;
}

async function examCount(): Promise<number> {
  return (await api(emulator.info, emulator.info.keys.pro, 'GET', '/exams?limit=1')).json['total'] as number;
}

describe('scanbridge watch', () => {
  it('uploads an export dropped into the folder, prints one JSON line, stops on SIGTERM and skips it after a restart', async () => {
    const watched = join(scratch, 'one');
    await mkdir(watched);
    const dataDir = join(scratch, 'data-one');
    const cli = startCli(['watch', watched, '--settle', '1'], dataDir);
    await waitFor(() => cli.stderr().includes('Watching 1 folder'), 15_000, `the watcher to start: ${cli.stderr()}`);
    const series = await smallSeries(join(watched, 'CBCT_EXPORT'), 4);
    await waitFor(() => cli.stdout().length === 1, 15_000, `the upload: ${cli.stderr()}`);
    const line = JSON.parse(cli.stdout()[0] as string) as Record<string, unknown>;
    expect(line).toEqual({
      exam_id: expect.any(String),
      status: 'ready',
      files: 4,
      bytes: series.bytes,
      study_uid: series.studyUid,
    });
    const exam = await api(emulator.info, emulator.info.keys.pro, 'GET', `/exams/${line['exam_id'] as string}`);
    expect(exam.json).toMatchObject({ status: 'ready', file_count: 4, exam_type: 'cbct', patient_id: 'T-1' });
    expect(await stop(cli)).toBe(0);
    expect(cli.stderr()).toContain('Stopped.');
    // No patient data in the log lines.
    expect(cli.stderr()).not.toMatch(/PRUEBA|T-1/);

    const again = startCli(['watch', watched, '--settle', '1'], dataDir);
    await waitFor(
      () => again.stderr().includes('already uploaded'),
      15_000,
      `the restart to skip the study: ${again.stderr()}`,
    );
    expect(await stop(again)).toBe(0);
    expect(again.stdout()).toEqual([]);
  });

  it('two watch processes on one shared folder upload a study once', async () => {
    const watched = join(scratch, 'share');
    await mkdir(watched);
    const before = await examCount();
    const a = startCli(['watch', watched, '--settle', '1', '--poll'], join(scratch, 'data-a'));
    const b = startCli(['watch', watched, '--settle', '1', '--poll'], join(scratch, 'data-b'));
    await waitFor(
      () => a.stderr().includes('Watching') && b.stderr().includes('Watching'),
      15_000,
      'both watchers to start',
    );
    const series = await smallSeries(join(watched, 'SHARED_EXPORT'), 5);
    const lines = (): string[] => [...a.stdout(), ...b.stdout()];
    await waitFor(
      () => lines().length === 1 && (a.stderr() + b.stderr()).includes('already uploaded'),
      20_000,
      `one upload and one skip:\n${a.stderr()}\n${b.stderr()}`,
    );
    expect(JSON.parse(lines()[0] as string)).toMatchObject({ status: 'ready', files: 5, study_uid: series.studyUid });
    expect(await Promise.all([stop(a), stop(b)])).toEqual([0, 0]);
    expect(lines()).toHaveLength(1);
    expect(await examCount()).toBe(before + 1);
  });

  it('refuses a missing folder and documents its options', async () => {
    const missing = startCli(['watch', join(scratch, 'nope')], join(scratch, 'data-x'));
    expect(await missing.exited).toBe(1);
    expect(missing.stderr()).toContain('folder not found');
    const help = startCli(['watch', '--help'], join(scratch, 'data-x'));
    expect(await help.exited).toBe(0);
    expect(help.stdout().join('\n')).toMatch(/--settle <s>[\s\S]*--poll/);
  });
});
