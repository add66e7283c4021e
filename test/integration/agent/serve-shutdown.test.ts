// `scanbridge serve` stopped by SIGTERM in the middle of an upload (a service manager stopping the
// agent, a logout): it must be gone within 2 s, and the next start finishes the same exam.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadJobView } from '../../../preload/contract';
import { newWatchFolder, openSettingsStore } from '../../../main/core/settings';
import { writeCbctExport } from '../../fixtures/dicom/generate';
import { api, EmulatorProcess } from '../../support/emulator';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let emulator: EmulatorProcess;
let scratch: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  scratch = mkdtempSync(join(tmpdir(), 'sb-serve-stop-'));
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await emulator?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

type Served = { child: ChildProcess; rpc: <T>(name: string, args?: unknown) => Promise<T>; events: () => Promise<void>; stderr: () => string };

async function serve(env: NodeJS.ProcessEnv): Promise<Served> {
  const child = spawn(process.execPath, ['main/bin/scanbridge.mjs', 'serve', '--port', '0'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  const stdout = child.stdout;
  if (!stdout) throw new Error('no stdout');
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 20_000);
    createInterface({ input: stdout }).once('line', (l) => {
      clearTimeout(timer);
      resolve(l);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
  const { port, token } = JSON.parse(line) as { port: number; token: string };
  const rpc = async <T>(name: string, args: unknown = {}): Promise<T> => {
    const res = await fetch(`http://127.0.0.1:${port}/rpc/${name}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(args),
    });
    const body = (await res.json()) as { result?: T; error?: unknown };
    if (!res.ok) throw new Error(`${name}: ${JSON.stringify(body.error)}`);
    return body.result as T;
  };
  // An open window: its event stream stays connected until the server ends it.
  const events = async (): Promise<void> => {
    const res = await fetch(`http://127.0.0.1:${port}/events?token=${token}`);
    void res.body?.pipeTo(new WritableStream()).catch(() => undefined);
  };
  return { child, rpc, events, stderr: () => err };
}

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('scanbridge serve shutdown', () => {
  it.each(['files', 'zip'] as const)('%s mode: exits within 2 s of SIGTERM mid-upload, and the upload finishes the same exam on the next start', async (mode) => {
    const key = emulator.info.keys.clinica;
    const examsBefore = (await api(emulator.info, key, 'GET', '/exams?limit=1')).json['total'] as number;
    const configDir = join(scratch, mode, 'config');
    const watched = join(scratch, mode, 'scanner');
    await writeCbctExport(join(watched, 'CBCT'), { patientName: 'IBÁÑEZ^JOSÉ', volumeSlices: 40, scoutSlices: 2, rows: 128, cols: 128, dicomdir: false });
    const settings = openSettingsStore({ cwd: configDir, env: {} });
    // Slow enough (about 10 s) that the stop lands in the middle of it.
    settings.update({
      api_base_url: emulator.info.base_url,
      upload: { concurrency: 2, bandwidth_limit_bytes_per_s: 150_000, mode },
      watch_folders: [newWatchFolder({ path: watched, mode: 'auto', settle_seconds: 1, exam_type: 'from_dicom' })],
    });
    const env = { ...process.env, SCANBRIDGE_DATA_DIR: join(scratch, mode, 'data'), SCANBRIDGE_CONFIG_DIR: configDir, SCANBRIDGE_API_KEY: key, DBUS_SESSION_BUS_ADDRESS: 'disabled:' };

    const first = await serve(env);
    await first.events();
    const moving = await waitFor(async () => (await first.rpc<UploadJobView[]>('uploads:list')).find((j) => j.phase === 'uploading' && j.bytes_sent > 0 && j.exam_id), 'the upload to move');
    expect(moving.bytes_sent).toBeLessThan(moving.bytes_total / 2);
    const exited = new Promise<number | null>((r) => first.child.once('exit', (code) => r(code)));
    const stopAt = performance.now();
    first.child.kill('SIGTERM');
    const code = await exited;
    const stopMs = performance.now() - stopAt;
    expect(code, first.stderr()).toBe(0);
    expect(stopMs).toBeLessThan(2000);

    // Next start, full speed: the same job resumes and finishes the exam it had created.
    settings.update({ upload: { concurrency: 2, bandwidth_limit_bytes_per_s: 0, mode } });
    const second = await serve(env);
    const done = await waitFor(async () => (await second.rpc<UploadJobView[]>('uploads:list')).find((j) => j.id === moving.id && j.phase === 'ready'), 'the resumed upload to finish');
    expect(done.exam_id).toBe(moving.exam_id);
    expect((await api(emulator.info, key, 'GET', '/exams?limit=1')).json['total']).toBe(examsBefore + 1);
    second.child.kill('SIGTERM');
    expect(await new Promise((r) => second.child.once('exit', r))).toBe(0);
  });
});
