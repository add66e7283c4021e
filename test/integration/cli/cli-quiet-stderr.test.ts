// Normal use leaves no warning of Node or of a dependency on stderr: an upload under a bandwidth
// limit (its transfers and bandwidth waits all listen on the job's signal, which passed Node's 10
// listeners), the DICOM listener's first association (dcmjs-dimse's memorystream allocated with the
// deprecated `new Buffer()`), and `serve` on a computer without the keychain module (Node's
// "Require stack" was printed). Real processes: the built bin, the emulator, DCMTK's storescu.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCbctExport } from '../../fixtures/dicom/generate';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { ServeProcess } from '../../support/e2e/serve-process';
import { dcmtk, listeningPort, startReceive, storescu } from '../../support/harness/receive-harness';
import { cliBin, cliNodeOptions, repoRoot } from '@support/repo-paths';
import { poller } from '../../support/harness/agent-harness';
import { lastLogLines, logDirOf } from '@main/core/log';

/** What Node prints for a process warning or a deprecation: `(node:1234) …Warning: …`, `DEP0005`. */
const NODE_WARNING = /\(node:\d+\)|Warning:|DEP0\d{3}|Require stack/;

let emu: EmulatorProcess;
let tmp: string;
const waitFor = poller(60_000, 100);

beforeAll(async () => {
  emu = await EmulatorProcess.start();
  tmp = mkdtempSync(join(tmpdir(), 'sb-quiet-stderr-'));
});
afterAll(async () => {
  await emu.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

const env = (name: string): NodeJS.ProcessEnv => ({
  ...process.env,
  LANG: 'en_US.UTF-8',
  SCANBRIDGE_API_URL: emu.info.base_url,
  SCANBRIDGE_API_KEY: emu.info.keys.ultra,
  SCANBRIDGE_DATA_DIR: join(tmp, name, 'data'),
  SCANBRIDGE_CONFIG_DIR: join(tmp, name, 'config'),
});

describe('no warnings on stderr in normal use', () => {
  it('an upload under --limit-rate, many files on eight connections', async () => {
    const ex = await writeCbctExport(join(tmp, 'limited'), { volumeSlices: 60, scoutSlices: 1 });
    const child = spawn(
      process.execPath,
      [...cliNodeOptions, cliBin, 'upload', ex.root, '--mode', 'files', '--limit-rate', '400k', '--concurrency', '8'],
      { cwd: repoRoot, env: env('limited'), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('is ready');
    expect(stderr).not.toMatch(NODE_WARNING);
  });

  it("the DICOM listener's first association and the study's upload", async () => {
    const ex = await writeCbctExport(join(tmp, 'sent'), { volumeSlices: 4, scoutSlices: 1 });
    const cli = startReceive(['--port', '0', '--quiet', '1', '--json'], env('receive'));
    try {
      const port = await waitFor(() => listeningPort(cli) ?? undefined, 'the listening line');
      const echo = await dcmtk('echoscu', ['-aec', 'SCANBRIDGE', '127.0.0.1', String(port)]);
      expect(echo.code, echo.stderr).toBe(0);
      const sent = await storescu(
        port,
        ex.series.map((x) => x.dir),
      );
      expect(sent.code, sent.stderr).toBe(0);
      await waitFor(() => cli.stdout().find((l) => l.includes('"event":"ready"')), 'the study ready');
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
    expect(cli.stderr()).not.toMatch(NODE_WARNING);
  });

  it('serve on a computer without the keychain module', async () => {
    const app = await ServeProcess.start({ apiUrl: emu.info.base_url, keychain: 'no-module' });
    try {
      // Saving a key is when the keychain is first needed.
      await app.rpc('keys:save', { key: emu.info.keys.pro });
      // serve's stderr carries warnings and errors only: the missing module is an info line of its log.
      const logDir = logDirOf(app.dataDir);
      const line = await waitFor(
        () => lastLogLines(logDir, 200).find((l) => l.includes('keychain support is not installed')),
        'the keychain line in the log',
      );
      expect(JSON.parse(line)).toMatchObject({ level: 'info', cmd: 'serve' });
      expect(app.stderr()).not.toMatch(NODE_WARNING);
      expect(app.stderr()).not.toMatch(/keychain/);
    } finally {
      await app.stop();
      await app.dispose();
    }
  });
});
