// `scanbridge watch` on a folder that goes away and comes back, as a clinic's share does: a real
// tmpfs unmounted and mounted again (a new file system at the same path, which the old native watch
// never sees), and a folder renamed away and back. Each time the folder is said to be out of reach,
// then back; it is watched again without --poll, and the exports that arrived meanwhile are uploaded.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { smallSeries, waitFor } from '../../support/harness/watch-harness';
import { cliBin, repoRoot } from '@support/repo-paths';

let emulator: EmulatorProcess;
let scratch: string;
const mounted: string[] = [];
const running: ChildProcess[] = [];

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  scratch = mkdtempSync(join(tmpdir(), 'sb-share-'));
});
afterAll(async () => {
  for (const p of running) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  for (const dir of mounted.reverse()) {
    try {
      execFileSync('umount', ['-l', dir]);
    } catch {
      // Already unmounted by the test.
    }
  }
  await emulator?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

type Cli = { child: ChildProcess; stdout: () => string[]; stderr: () => string };

function watch(dir: string, dataDir: string, lang: string): Cli {
  const child = spawn(process.execPath, [cliBin, 'watch', dir, '--settle', '1'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      SCANBRIDGE_API_URL: emulator.info.base_url,
      SCANBRIDGE_API_KEY: emulator.info.keys.pro,
      SCANBRIDGE_DATA_DIR: dataDir,
      SCANBRIDGE_CONFIG_DIR: `${dataDir}-config`,
      LANG: lang,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  return { child, stdout: () => out.split('\n').filter((l) => l !== ''), stderr: () => err };
}

function mountTmpfs(dir: string): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m,mode=0755', 'tmpfs', dir]);
  mounted.push(dir);
}

const count = (text: string, part: string): number => text.split(part).length - 1;

describe('a watched share that comes and goes', () => {
  it(
    'unmounted and mounted again: said, watched again without --poll, and the new export uploaded',
    { timeout: 60_000 },
    async () => {
      const share = join(scratch, 'share');
      mkdirSync(share);
      mountTmpfs(share);
      const cli = watch(share, join(scratch, 'data-mount'), 'en_US.UTF-8');
      await waitFor(() => cli.stderr().includes('Watching 1 folder'), 15_000, `the watcher: ${cli.stderr()}`);
      await smallSeries(join(share, 'BEFORE'), 2);
      await waitFor(() => cli.stdout().length === 1, 20_000, `the first upload: ${cli.stderr()}`);

      execFileSync('umount', [share]);
      await waitFor(
        () => cli.stderr().includes(`the folder ${share} cannot be reached since`),
        15_000,
        `the folder said lost: ${cli.stderr()}`,
      );
      // Mounted again: a new file system at the same path, with an export written as it comes back.
      mountTmpfs(share);
      await smallSeries(join(share, 'WHILE_AWAY'), 3);
      await waitFor(() => cli.stdout().length === 2, 30_000, `the upload after the remount: ${cli.stderr()}`);
      expect(cli.stderr()).toContain(`the folder ${share} is back; it is watched again`);
      expect(JSON.parse(cli.stdout()[1] ?? '{}')).toMatchObject({ status: 'ready', files: 3 });
    },
  );

  it(
    'renamed away and back: said in the terminal language, and what arrived meanwhile is uploaded',
    { timeout: 60_000 },
    async () => {
      const dir = join(scratch, 'export-folder');
      mkdirSync(dir);
      const cli = watch(dir, join(scratch, 'data-rename'), 'es_CL.UTF-8');
      await waitFor(() => /Watching 1 folder|Vigilando/.test(cli.stderr()), 15_000, `the watcher: ${cli.stderr()}`);

      renameSync(dir, `${dir}.away`);
      await waitFor(
        () => cli.stderr().includes(`no se puede acceder a la carpeta ${dir} desde`),
        15_000,
        `the folder said lost: ${cli.stderr()}`,
      );
      await smallSeries(join(`${dir}.away`, 'ARRIVED_MEANWHILE'), 2);
      renameSync(`${dir}.away`, dir);
      await waitFor(() => cli.stdout().length === 1, 30_000, `the upload after it came back: ${cli.stderr()}`);
      expect(count(cli.stderr(), `la carpeta ${dir} está de vuelta`)).toBe(1);
      expect(JSON.parse(cli.stdout()[0] ?? '{}')).toMatchObject({ status: 'ready', files: 2 });
    },
  );
});
