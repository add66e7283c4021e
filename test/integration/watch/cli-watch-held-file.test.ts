// `scanbridge watch` and a slice it cannot read: the export waits with the slice named, and once
// the slice reads again — with its size and modification time unchanged, as when the scanner's
// software or an antivirus lets go of a file — it is uploaded at the next recheck, without any
// change to the folder. Run as an unprivileged user when the tests run as root (here and in CI), so
// that a permission really refuses the read; the Windows job (test/windows/) holds the file open without
// sharing instead.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';
import { smallSeries, waitFor } from '../../support/harness/watch-harness';
import { cliBin, repoRoot } from '@support/repo-paths';

let emulator: EmulatorProcess;
let scratch: string;
const running: ChildProcess[] = [];
const asRoot = process.getuid?.() === 0;

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  scratch = mkdtempSync(join(tmpdir(), 'sb-watch-held-'));
  chmodSync(scratch, 0o755);
});
afterAll(async () => {
  for (const p of running) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  await emulator?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

/** `scanbridge watch`, as the unprivileged user `nobody` when the test runs as root. */
function startWatch(
  args: string[],
  dataDir: string,
): { stdout: () => string[]; stderr: () => string; exited: Promise<number | null>; child: ChildProcess } {
  const argv = [process.execPath, cliBin, 'watch', ...args];
  const [cmd, ...rest] = asRoot ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', ...argv] : argv;
  const child = spawn(cmd as string, rest, {
    cwd: repoRoot,
    env: {
      ...process.env,
      HOME: dataDir,
      SCANBRIDGE_API_URL: emulator.info.base_url,
      SCANBRIDGE_API_KEY: emulator.info.keys.pro,
      SCANBRIDGE_DATA_DIR: join(dataDir, 'data'),
      SCANBRIDGE_CONFIG_DIR: join(dataDir, 'config'),
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

describe('scanbridge watch and a slice it cannot read', () => {
  it('names the slice, then uploads the export once the slice reads again unchanged, within settle + recheck', async () => {
    const watched = join(scratch, 'watched');
    const home = join(scratch, 'home');
    mkdirSync(watched);
    mkdirSync(home);
    const forNobody = (path: string): void => (asRoot ? chownSync(path, 65534, 65534) : undefined);
    forNobody(watched);
    forNobody(home);
    const cli = startWatch([watched, '--settle', '1'], home);
    await waitFor(() => cli.stderr().includes('Watching 1 folder'), 20_000, `the watcher to start: ${cli.stderr()}`);

    // The export is written whole in a staging folder, one slice made unreadable, then moved in.
    const staging = join(scratch, 'staging');
    const series = await smallSeries(join(staging, 'CBCT_HELD'), 4);
    const held = series.files[2]?.path as string;
    chmodSync(held, 0o000);
    const before = statSync(held);
    const exportDir = join(watched, 'CBCT_HELD');
    renameSync(join(staging, 'CBCT_HELD'), exportDir);
    forNobody(exportDir);
    const heldName = relative(join(staging, 'CBCT_HELD'), held).split(sep).join('/');

    await waitFor(
      () => cli.stderr().includes('not complete yet'),
      20_000,
      `the export to be held back: ${cli.stderr()}`,
    );
    expect(cli.stderr()).toContain(
      `watched/CBCT_HELD: not complete yet: 1 file(s) not readable (still open?): ${heldName}.`,
    );
    expect(cli.stdout()).toEqual([]);

    // Released: readable again, same size, same modification time.
    const heldNow = join(exportDir, heldName);
    const released = Date.now();
    chmodSync(heldNow, 0o644);
    const after = statSync(heldNow);
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);

    // settle 1 s, recheck max(30 s, 3 × settle): uploaded within about 31 s of the release.
    await waitFor(() => cli.stdout().length === 1, 45_000, `the upload after the release: ${cli.stderr()}`);
    expect(Date.now() - released).toBeLessThan(31_000 + 5_000);
    const line = JSON.parse(cli.stdout()[0] as string) as { exam_id: string; files: number; study_uid: string };
    expect(line).toMatchObject({ status: 'ready', files: 4, study_uid: series.studyUid });
    const exam = await api(emulator.info, emulator.info.keys.pro, 'GET', `/exams/${line.exam_id}`);
    expect(exam.json).toMatchObject({ status: 'ready', file_count: 4 });

    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.stderr()).toContain('Stopped.');
  }, 90_000);
});
