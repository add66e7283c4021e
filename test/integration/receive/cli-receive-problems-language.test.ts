// The DICOM listener's own problems in the terminal's language: `scanbridge receive` and `serve`
// under LANG=es_CL.UTF-8 say a port already in use, an object that is not DICOM and a full disk in
// Spanish (the listener's state carries a code and its facts, worded by the command), and the same
// lines stay English under en_US. The real bin, DCMTK's storescu as the scanner, a real tmpfs disk.
import { spawn, execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, smallSeries } from '@support/harness/watch-harness';
import { cliBin, repoRoot } from '@support/repo-paths';
import { dcmtk, listeningPort, type ReceiveCli, startReceive, storescu } from '@support/harness/receive-harness';
import { mountSmallDisk, type SmallDisk } from '@support/data/small-disk';

const exec = promisify(execFile);
let tmp: string;
let blocker: Server;
let busyPort: number;
const running: ReceiveCli[] = [];
let disk: SmallDisk | null = null;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'sb-receive-problems-'));
  blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, '0.0.0.0', r));
  const address = blocker.address();
  busyPort = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => {
  for (const c of running) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  await new Promise<void>((r) => blocker.close(() => r()));
  rmSync(tmp, { recursive: true, force: true });
});
afterEach(() => {
  disk?.dispose();
  disk = null;
});

const ES = { LANG: 'es_CL.UTF-8', LC_ALL: '', LC_MESSAGES: '' };
const EN = { LANG: 'en_US.UTF-8', LC_ALL: '', LC_MESSAGES: '' };
/** No service is needed for what the listener says; nothing answers on port 9. */
const NO_SERVICE = { SCANBRIDGE_API_URL: 'http://127.0.0.1:9', SCANBRIDGE_API_KEY: 'cbct_live_listener_words' };

/** The lines a person reads on stderr (the command log's time-stamped lines aside). */
const said = (stderr: string): string[] =>
  stderr
    .split(/[\r\n]+/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^\d{4}-\d\d-\d\dT/.test(l));

type Run = { code: number | null; stderr: string };

function run(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const child = spawn(process.execPath, [cliBin, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...NO_SERVICE, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

async function listening(env: NodeJS.ProcessEnv, dataDir: string): Promise<{ cli: ReceiveCli; port: number }> {
  const cli = startReceive(['--port', '0', '--quiet', '1'], { ...NO_SERVICE, ...env, SCANBRIDGE_DATA_DIR: dataDir });
  running.push(cli);
  await waitFor(() => listeningPort(cli) !== null || cli.child.exitCode !== null, 30_000, `listening: ${cli.stderr()}`);
  const port = listeningPort(cli);
  if (port === null) throw new Error(`receive did not start: ${cli.stderr()}`);
  return { cli, port };
}

async function stop(cli: ReceiveCli): Promise<void> {
  cli.child.kill('SIGINT');
  expect(await cli.exited).toBe(0);
}

describe("the listener's problems in the terminal language", () => {
  it('says a port already in use in Spanish (receive and serve), and in the same English as before under en_US', async () => {
    const es = await run(['receive', '--port', String(busyPort)], { ...ES, SCANBRIDGE_DATA_DIR: join(tmp, 'busy-es') });
    expect(es.code).toBe(1);
    expect(said(es.stderr)).toEqual([`scanbridge receive: el puerto ${busyPort} ya lo usa otro programa`]);
    const en = await run(['receive', '--port', String(busyPort)], { ...EN, SCANBRIDGE_DATA_DIR: join(tmp, 'busy-en') });
    expect(en.code).toBe(1);
    expect(said(en.stderr)).toEqual([`scanbridge receive: port ${busyPort} is already in use by another program`]);

    const empty = mkdtempSync(join(tmp, 'no-window-'));
    const serveArgs = ['serve', '--port', String(busyPort), '--renderer', empty];
    const serveEs = await run(serveArgs, { ...ES, SCANBRIDGE_DATA_DIR: join(tmp, 'serve-es') });
    expect(serveEs.code).toBe(1);
    expect(said(serveEs.stderr)).toContain(
      `scanbridge serve: no se puede escuchar en el puerto ${busyPort}: el puerto ya está en uso`,
    );
    const serveEn = await run(serveArgs, { ...EN, SCANBRIDGE_DATA_DIR: join(tmp, 'serve-en') });
    expect(serveEn.code).toBe(1);
    expect(said(serveEn.stderr)).toContain(
      `scanbridge serve: cannot listen on port ${busyPort}: the port is already in use`,
    );
  });

  it('says an object that is not DICOM (no Study Instance UID) in Spanish, and in English under en_US', async () => {
    // A CT object without its Study Instance UID: storescu sends it, the listener cannot file it.
    const dump = join(tmp, 'no-study.txt');
    writeFileSync(dump, '(0008,0016) UI [1.2.840.10008.5.1.4.1.1.2]\n(0008,0018) UI [1.2.826.0.1.3680043.2.1143.77]\n');
    const object = join(tmp, 'no-study.dcm');
    await exec('dump2dcm', ['-g', '+te', dump, object]);

    for (const [env, line] of [
      [ES, 'receptor DICOM: un objeto de STORESCU en 127.0.0.1 no se pudo leer como DICOM; se le avisó al remitente'],
      [EN, 'dicom listener: an object from STORESCU at 127.0.0.1 could not be read as DICOM; the sender was told'],
    ] as const) {
      const { cli, port } = await listening(env, mkdtempSync(join(tmp, 'data-')));
      await storescu(port, [object]);
      await waitFor(() => said(cli.stderr()).includes(line), 30_000, `the line "${line}": ${cli.stderr()}`);
      await stop(cli);
    }
  });

  it('says a full disk in Spanish, with the folder and the room to make', async () => {
    disk = mountSmallDisk(8);
    const dataDir = join(disk.dir, 'data');
    const { cli, port } = await listening(ES, dataDir);
    const series = await smallSeries(join(tmp, 'full-series'), 2);
    disk.fill();
    const refused = await dcmtk('storescu', ['-v', '-aec', 'SCANBRIDGE', '127.0.0.1', String(port), '+sd', series.dir]);
    expect(refused.stdout + refused.stderr).toMatch(/Out ?of ?Resources/i);
    const line = `receptor DICOM: El disco donde está la carpeta ${join(dataDir, 'receive')} está lleno: libere al menos 16 MB en él. Nada se perdió.`;
    await waitFor(() => said(cli.stderr()).includes(line), 30_000, `the full-disk line: ${cli.stderr()}`);
    disk.free();
    await stop(cli);
  });

  it('introduces an unexpected error in Spanish, and keeps the English line as it was', async () => {
    // A data folder under a plain file: no command expects that.
    const file = join(tmp, 'a-file');
    writeFileSync(file, '');
    const dataDir = join(file, 'data');
    const es = await run(['receive', '--port', '0'], { ...ES, SCANBRIDGE_DATA_DIR: dataDir });
    expect(es.code).toBe(1);
    expect(said(es.stderr)).toEqual([
      `scanbridge receive: error inesperado: ENOTDIR: not a directory, mkdir '${dataDir}'`,
    ]);
    const en = await run(['receive', '--port', '0'], { ...EN, SCANBRIDGE_DATA_DIR: dataDir });
    expect(en.code).toBe(1);
    expect(said(en.stderr)).toEqual([`scanbridge receive: ENOTDIR: not a directory, mkdir '${dataDir}'`]);
  });
});
