// `scanbridge upload` whose data folder sits on a disk that fills up mid-run (a real 4 MB tmpfs,
// filled while the service is creating the exam): one clear sentence naming the folder and the
// room to make, no stack trace, nothing torn in the journal; the command waits, and once there is
// room the same run ends in one ready exam. A disk already full at the start is said before any
// exam exists, and the rerun uploads.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createApiClient } from '@main/core/api';
import { cliBin, repoRoot } from '@support/repo-paths';
import { mountSmallDisk, type SmallDisk } from '@support/data/small-disk';
import { waitFor } from '@support/harness/watch-harness';
import { writeCbctExport } from '../../fixtures/dicom/generate';
import { EmulatorProcess } from '../../support/emulator/emulator';

type Run = { code: number | null; stdout: string; stderr: string };

let emu: EmulatorProcess;
let client: ApiClient;
let tmp: string;
let disk: SmallDisk;

/** A proxy that holds the first POST /exams until `release()` (the request reaches the service only then). */
async function holdingProxy(target: string): Promise<{
  baseUrl: string;
  held: Promise<void>;
  release: () => void;
  stop: () => Promise<void>;
}> {
  const to = new URL(target);
  let onHeld = (): void => undefined;
  const held = new Promise<void>((r) => (onHeld = r));
  let release = (): void => undefined;
  const gate = new Promise<void>((r) => (release = r));
  let holding = true;
  const server: Server = createServer((req, res) => {
    const go = (): void => {
      const up = request(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      up.on('error', () => res.destroy());
      req.pipe(up);
    };
    if (holding && req.method === 'POST' && /\/exams$/.test(req.url ?? '')) {
      holding = false;
      onHeld();
      void gate.then(go);
    } else go();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}${to.pathname}`,
    held,
    release,
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function cliEnv(baseUrl: string, dataDir: string, lang: string): NodeJS.ProcessEnv {
  return {
    SCANBRIDGE_API_URL: baseUrl,
    SCANBRIDGE_API_KEY: emu.info.keys.ultra,
    SCANBRIDGE_DATA_DIR: dataDir,
    SCANBRIDGE_CONFIG_DIR: join(tmp, 'config'),
    LANG: lang,
  };
}

async function examStatuses(patientId: string): Promise<(string | null | undefined)[]> {
  return (await client.exams.list({ limit: 100 })).exams.filter((e) => e.patient_id === patientId).map((e) => e.status);
}

/** The command running: its stderr so far, and its end. */
function runCli(args: string[], env: NodeJS.ProcessEnv): { stderr: () => string; done: Promise<Run> } {
  const child = spawn(process.execPath, [cliBin, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return {
    stderr: () => stderr,
    done: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))),
  };
}

const startCli = (args: string[], env: NodeJS.ProcessEnv): Promise<Run> => runCli(args, env).done;

/** Every line of every journal under `dataDir` is a whole record. */
function expectWholeJournals(dataDir: string): void {
  const jobs = join(dataDir, 'jobs');
  for (const name of readdirSync(jobs).filter((n) => n.endsWith('.jsonl')))
    for (const line of readFileSync(join(jobs, name), 'utf8')
      .split('\n')
      .filter((l) => l !== ''))
      expect(() => JSON.parse(line) as unknown).not.toThrow();
}

beforeAll(async () => {
  emu = await EmulatorProcess.start();
  client = createApiClient({ baseUrl: emu.info.base_url, apiKey: emu.info.keys.ultra });
  tmp = mkdtempSync(join(tmpdir(), 'sb-upload-full-'));
  disk = mountSmallDisk(4);
});

afterAll(async () => {
  disk.dispose();
  await emu.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

describe('an upload whose data folder fills up', () => {
  it('files mode: says which folder is full and how much to free, keeps the journal whole, waits, and ends in one ready exam once there is room', async () => {
    const pid = 'DISKFULL1';
    const ex = await writeCbctExport(join(tmp, 'study'), {
      patientId: pid,
      volumeSlices: 150,
      scoutSlices: 1,
      rows: 16,
      cols: 16,
      dicomdir: false,
    });
    const dataDir = join(disk.dir, 'data');
    const proxy = await holdingProxy(emu.info.base_url);
    const words = `El disco donde está la carpeta ${join(dataDir, 'jobs')} está lleno: libere al menos 16 MB en él. Nada se perdió.`;
    try {
      const run = runCli(['upload', ex.root, '--mode', 'files'], cliEnv(proxy.baseUrl, dataDir, 'es_CL.UTF-8'));
      await proxy.held;
      disk.fill();
      proxy.release();
      await waitFor(() => run.stderr().includes(words), 60_000, 'the full disk said');
      expect(run.stderr()).toContain('La subida espera y sigue sola cuando haya espacio');
      expect(run.stderr()).not.toMatch(/\n\s+at |ENOSPC/);
      expectWholeJournals(dataDir);
      disk.free();
      const r = await run.done;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr.split(words)).toHaveLength(2); // said once while it waited
    } finally {
      await proxy.stop();
      disk.free();
    }
    expect(await examStatuses(pid)).toEqual(['ready']);
  });

  it('compressed zip mode: the archive that cannot be written is said the same way, and the same run ends in one ready exam once there is room', async () => {
    const pid = 'DISKFULL2';
    const ex = await writeCbctExport(join(tmp, 'study-zip'), { patientId: pid, volumeSlices: 40, scoutSlices: 1 });
    const dataDir = join(disk.dir, 'data-zip');
    const proxy = await holdingProxy(emu.info.base_url);
    const args = ['upload', ex.root, '--mode', 'zip', '--compress', 'always'];
    const words = new RegExp(
      `The disk holding the folder ${dataDir}/(jobs|archives) is full: free at least \\d+ MB on it\\. Nothing was lost\\. The upload waits and goes on by itself once there is room`,
    );
    try {
      const run = runCli(args, cliEnv(proxy.baseUrl, dataDir, 'en_US.UTF-8'));
      await proxy.held;
      disk.fill();
      proxy.release();
      await waitFor(() => words.test(run.stderr()), 60_000, 'the full disk said');
      expect(run.stderr()).not.toMatch(/\n\s+at |ENOSPC/);
      disk.free();
      const r = await run.done;
      expect(r.code, r.stderr).toBe(0);
    } finally {
      await proxy.stop();
      disk.free();
    }
    expect(await examStatuses(pid)).toEqual(['ready']);
  });

  it('a data folder already full at the start: said before any exam exists, no journal left behind', async () => {
    const pid = 'DISKFULL3';
    const ex = await writeCbctExport(join(tmp, 'study-start'), { patientId: pid, volumeSlices: 3, scoutSlices: 1 });
    const dataDir = join(disk.dir, 'data-start');
    disk.fill();
    try {
      const r = await startCli(['upload', ex.root], cliEnv(emu.info.base_url, dataDir, 'en_US.UTF-8'));
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(`The disk holding the folder ${dataDir}\\S* is full: free at least 16 MB on it\\.`),
      );
      expect(r.stderr).not.toMatch(/\n\s+at |ENOSPC/);
      expect(await examStatuses(pid)).toEqual([]);
    } finally {
      disk.free();
    }
    const again = await startCli(['upload', ex.root], cliEnv(emu.info.base_url, dataDir, 'en_US.UTF-8'));
    expect(again.code, again.stderr).toBe(0);
    expect(await examStatuses(pid)).toEqual(['ready']);
  });
});
