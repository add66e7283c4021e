// Real `scanbridge serve` and `scanbridge watch` processes for the agent's tests, the contract over
// the bridge's HTTP transport, and the emulator and scratch folder the serve tests share.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { MethodArgs, MethodName, MethodResult } from '../../../preload/contract';
import type { EmulatorProcess } from '../emulator/emulator';
import { emulatorScene, type EmulatorScene } from '../emulator/emulator-scene';
import { repoRoot } from '../repo-paths';

const root = repoRoot;

export type Proc = {
  child: ChildProcess;
  stdout: () => string[];
  stderr: () => string;
  exited: Promise<number | null>;
  stop: () => Promise<number | null>;
};

function start(args: string[], env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, ['main/bin/scanbridge.mjs', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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

export type ServeLine = { url: string; port: number; token: string };

/** A running `scanbridge serve`: its URL line, and `rpc` to call it (throws on an error answer). */
export type Served = Proc & { line: ServeLine; rpc: <T>(name: string, args?: unknown) => Promise<T> };

/** Resolves once a `scanbridge serve --port 0 …` process printed its URL line; fails if it exits first or after `timeoutMs`. */
async function serving(p: Proc, timeoutMs: number): Promise<Served> {
  const stdout = p.child.stdout;
  if (!stdout) throw new Error('no stdout');
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${p.stderr()}`)), timeoutMs);
    createInterface({ input: stdout }).once('line', (l) => {
      clearTimeout(timer);
      resolve(l);
    });
    p.child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${p.stderr()}`)));
  });
  const line = JSON.parse(first) as ServeLine;
  const rpc = async <T>(name: string, args: unknown = {}): Promise<T> => {
    const res = await fetch(`http://127.0.0.1:${line.port}/rpc/${name}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${line.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(args),
    });
    const body = (await res.json()) as { result?: T; error?: { code: string; message: string } };
    if (!res.ok || body.error)
      throw new Error(`${name} → ${res.status} ${body.error?.code ?? ''} ${body.error?.message ?? ''}`);
    return body.result as T;
  };
  return { ...p, line, rpc };
}

export type Serve = Served & { call: <M extends MethodName>(name: M, args: MethodArgs<M>) => Promise<MethodResult<M>> };

/** `scanbridge serve` with a placeholder window; resolves once it printed its URL line. */
export async function startServe(
  scratch: string,
  env: NodeJS.ProcessEnv & { SCANBRIDGE_CONFIG_DIR: string; SCANBRIDGE_DATA_DIR: string },
): Promise<Serve> {
  const renderer = join(scratch, 'placeholder-window');
  mkdirSync(renderer, { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>ScanBridge</title>');
  const served = await serving(
    start(['serve', '--port', '0', '--renderer', renderer], { DBUS_SESSION_BUS_ADDRESS: 'disabled:', ...env }),
    20_000,
  );
  const call = <M extends MethodName>(name: M, args: MethodArgs<M>): Promise<MethodResult<M>> =>
    served.rpc<MethodResult<M>>(name, args);
  return { ...served, call };
}

export type ServeScene = EmulatorScene & {
  /** `scanbridge serve --port 0 <args>` (`env` over this process's), resolved once it printed its URL line, failed if not within `timeoutMs`; killed at the end of the file if it still runs. */
  serve: (args: string[], env: NodeJS.ProcessEnv, timeoutMs?: number) => Promise<Served>;
};

/** One emulator and one scratch folder `<temp>/<prefix>XXXXXX` for a file of serve tests; serve processes still running after them are killed (SIGKILL). */
export function serveScene(prefix: string): ServeScene {
  const running: Proc[] = [];
  const scene = emulatorScene({
    scratch: prefix,
    atEnd: () => {
      for (const { child: c } of running) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    },
  });
  return {
    get emulator(): EmulatorProcess {
      return scene.emulator;
    },
    get scratch(): string {
      return scene.scratch;
    },
    serve: (args, env, timeoutMs = 20_000) => {
      const p = start(['serve', '--port', '0', ...args], env);
      running.push(p);
      return serving(p, timeoutMs);
    },
  };
}

/** `scanbridge watch <dirs> --settle <s>`. */
export function startWatch(dirs: string[], settle: number, env: NodeJS.ProcessEnv): Proc {
  return start(['watch', ...dirs, '--settle', String(settle)], env);
}
