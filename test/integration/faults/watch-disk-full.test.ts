// `scanbridge watch` whose data folder sits on a disk that is full when a scanner export arrives (a
// real 8 MB tmpfs): the command keeps running, says which folder is full, and once there is room the
// upload goes on by itself and ends in one ready exam.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';
import { smallSeries, waitFor } from '../../support/harness/watch-harness';
import { mountSmallDisk, type SmallDisk } from '@support/data/small-disk';
import { cliBin, repoRoot } from '@support/repo-paths';

let emulator: EmulatorProcess;
let scratch: string;
let disk: SmallDisk;
let child: ChildProcess | null = null;

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  scratch = mkdtempSync(join(tmpdir(), 'sb-watch-full-'));
  disk = mountSmallDisk(8);
});
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  disk.dispose();
  await emulator.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

describe('scanbridge watch on a full disk', () => {
  it('keeps running, says which folder is full, and uploads once there is room', { timeout: 60_000 }, async () => {
    const watched = join(scratch, 'export');
    mkdirSync(watched);
    const dataDir = join(disk.dir, 'data');
    const proc = spawn(process.execPath, [cliBin, 'watch', watched, '--settle', '1'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        SCANBRIDGE_API_URL: emulator.info.base_url,
        SCANBRIDGE_API_KEY: emulator.info.keys.pro,
        SCANBRIDGE_DATA_DIR: dataDir,
        SCANBRIDGE_CONFIG_DIR: join(scratch, 'config'),
        LANG: 'en_US.UTF-8',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    let out = '';
    let err = '';
    proc.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    proc.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    await waitFor(() => err.includes('Watching 1 folder'), 15_000, `the watcher: ${err}`);

    disk.fill();
    await smallSeries(join(watched, 'CBCT_EXPORT'), 3);
    await waitFor(
      () =>
        /The disk holding the folder \S+ is full: free at least \d+ MB on it\. Nothing was lost\. It goes on by itself once there is room\./.test(
          err,
        ),
      30_000,
      `the full disk said: ${err}`,
    );
    expect(proc.exitCode).toBeNull();

    disk.free();
    await waitFor(() => out.includes('"status":"ready"'), 40_000, `the upload once there is room: ${err}`);
    expect(proc.exitCode).toBeNull();
    const exams = await api(emulator.info, emulator.info.keys.pro, 'GET', '/exams?limit=100');
    expect((exams.json['exams'] as { status: string }[]).map((e) => e.status)).toEqual(['ready']);
  });
});
