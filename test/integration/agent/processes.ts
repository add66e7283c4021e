// Real `scanbridge serve` and `scanbridge watch` processes for the agent's tests, and the contract
// over the bridge's HTTP transport.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { MethodArgs, MethodName, MethodResult } from '../../../preload/contract';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export type Proc = { child: ChildProcess; stdout: () => string[]; stderr: () => string; exited: Promise<number | null>; stop: () => Promise<number | null> };

function start(args: string[], env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, ['main/bin/scanbridge.mjs', ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    child,
    stdout: () => out.split('\n').filter((l) => l !== ''),
    stderr: () => err,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export type Serve = Proc & { call: <M extends MethodName>(name: M, args: MethodArgs<M>) => Promise<MethodResult<M>> };

/** `scanbridge serve` with a placeholder window; resolves once it printed its URL line. */
export async function startServe(scratch: string, env: NodeJS.ProcessEnv & { SCANBRIDGE_CONFIG_DIR: string; SCANBRIDGE_DATA_DIR: string }): Promise<Serve> {
  const renderer = join(scratch, 'placeholder-window');
  mkdirSync(renderer, { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>ScanBridge</title>');
  const p = start(['serve', '--port', '0', '--renderer', renderer], { DBUS_SESSION_BUS_ADDRESS: 'disabled:', ...env });
  const stdout = p.child.stdout;
  if (!stdout) throw new Error('no stdout');
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${p.stderr()}`)), 20_000);
    createInterface({ input: stdout }).once('line', (l) => {
      clearTimeout(timer);
      resolve(l);
    });
    p.child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${p.stderr()}`)));
  });
  const { port, token } = JSON.parse(line) as { port: number; token: string };
  const call = async <M extends MethodName>(name: M, args: MethodArgs<M>): Promise<MethodResult<M>> => {
    const res = await fetch(`http://127.0.0.1:${port}/rpc/${name}`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(args) });
    const body = (await res.json()) as { result?: MethodResult<M>; error?: { code: string; message: string } };
    if (!res.ok || body.error) throw new Error(`${name} → ${res.status} ${body.error?.code ?? ''} ${body.error?.message ?? ''}`);
    return body.result as MethodResult<M>;
  };
  return { ...p, call };
}

/** `scanbridge watch <dirs> --settle <s>`. */
export function startWatch(dirs: string[], settle: number, env: NodeJS.ProcessEnv): Proc {
  return start(['watch', ...dirs, '--settle', String(settle)], env);
}
