// `scanbridge serve` as a process: its JSON line, the window files, RPC and SSE, and a machine
// without a keychain service (D-Bus unreachable, so the real keychain adapter fails): the key is
// then held for the session only and the app stays usable.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmulatorProcess } from '../../support/emulator';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let emulator: EmulatorProcess;
let scratch: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  scratch = mkdtempSync(join(tmpdir(), 'sb-serve-'));
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await emulator?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

type Line = { url: string; port: number; token: string };

async function serve(dataDir: string, configDir: string, renderer: string): Promise<{ child: ChildProcess; line: Line; stderr: () => string }> {
  const child = spawn(process.execPath, ['main/bin/scanbridge.mjs', 'serve', '--port', '0', '--data-dir', dataDir, '--renderer', renderer], {
    cwd: root,
    env: {
      ...process.env,
      SCANBRIDGE_API_URL: emulator.info.base_url,
      SCANBRIDGE_CONFIG_DIR: configDir,
      // No reachable session bus: the OS keychain cannot be used.
      DBUS_SESSION_BUS_ADDRESS: 'disabled:',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  const stdout = child.stdout;
  if (!stdout) throw new Error('no stdout');
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 20_000);
    createInterface({ input: stdout }).once('line', (l) => {
      clearTimeout(timer);
      resolve(l);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
  return { child, line: JSON.parse(first) as Line, stderr: () => err };
}

describe('scanbridge serve', () => {
  it('prints its URL line, serves the window, and keeps a key for the session when there is no keychain', async () => {
    const renderer = join(scratch, 'dist');
    mkdirSync(renderer);
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>ScanBridge</title>');
    const configDir = join(scratch, 'config');
    const { child, line, stderr } = await serve(join(scratch, 'data'), configDir, renderer);
    expect(line.url).toBe(`http://127.0.0.1:${line.port}/?token=${line.token}`);

    const page = await fetch(`http://127.0.0.1:${line.port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>ScanBridge</title>');

    const rpc = async (name: string, args: unknown = {}): Promise<{ status: number; body: { result?: Record<string, unknown>; error?: { code: string } } }> => {
      const res = await fetch(`http://127.0.0.1:${line.port}/rpc/${name}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${line.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(args),
      });
      return { status: res.status, body: (await res.json()) as { result?: Record<string, unknown> } };
    };
    expect((await rpc('app:info')).body.result).toMatchObject({ transport: 'http' });
    const status = await rpc('keys:status');
    expect(status.body.result).toMatchObject({ keychain: { available: false }, live: { present: false }, active: null });

    const events = new AbortController();
    const stream = await fetch(`http://127.0.0.1:${line.port}/events?token=${line.token}`, { signal: events.signal });
    if (!stream.body) throw new Error('no event stream');
    const reader = stream.body.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const until = async (needle: string): Promise<void> => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error('event stream ended');
        text += value;
      }
    };
    await until(': connected');

    const saved = await rpc('keys:save', { key: emulator.info.keys.sandbox });
    expect(saved.status).toBe(200);
    expect(saved.body.result).toMatchObject({
      status: { keychain: { available: false }, sandbox: { present: true, session_only: true }, active: 'sandbox' },
      account: { sandbox: true, plan: 'pro' },
    });
    await until('event: keys:changed');
    expect(text).toMatch(/event: keys:changed\ndata: \{.*"session_only":true/);
    events.abort();
    expect((await rpc('account:get')).body.result).toMatchObject({ sandbox: true });

    const bad = await rpc('keys:save', { key: 'cbct_live_rejected_by_the_service' });
    expect(bad.status).toBe(422);
    expect(bad.body.error?.code).toBe('unauthorized');

    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const name of readdirSync(configDir)) expect(readFileSync(join(configDir, name), 'utf8')).not.toContain(emulator.info.keys.sandbox);
    expect(stderr()).not.toContain(emulator.info.keys.sandbox);
  });
});
