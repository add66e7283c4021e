// A real HTTP proxy with a login for tests: Debian's tinyproxy in the foreground on its own config
// file (TOOLCHAIN.md), on a free port of 127.0.0.1, logging every CONNECT tunnel.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

export type Tinyproxy = {
  port: number;
  /** `http://user:password@127.0.0.1:port` with the right login. */
  url: string;
  /** The same address with `password` instead of the right one. */
  urlWithPassword(password: string): string;
  /** The `CONNECT host:port` targets in its log so far. */
  connects(): string[];
  stop(): Promise<void>;
};

/** Resolves once the proxy accepts connections (its log says it listens). */
async function listening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const { connect } = await import('node:net');
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`tinyproxy exited with ${child.exitCode}: ${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const c = connect(port, '127.0.0.1');
      c.once('connect', () => (c.destroy(), resolve(true)));
      c.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`tinyproxy did not listen on ${port}: ${log()}`);
}

/** Starts tinyproxy with Basic auth `user`/`password`. */
export async function startTinyproxy(user = 'clinica', password = 'Secreto-123'): Promise<Tinyproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-proxy-'));
  const port = await freePort();
  const logFile = join(dir, 'tinyproxy.log');
  const conf = join(dir, 'tinyproxy.conf');
  writeFileSync(
    conf,
    [
      `Port ${port}`,
      'Listen 127.0.0.1',
      'Allow 127.0.0.1',
      `BasicAuth ${user} ${password}`,
      `LogFile "${logFile}"`,
      'LogLevel Connect',
      'Timeout 60',
      'MaxClients 50',
      '',
    ].join('\n'),
  );
  writeFileSync(logFile, '');
  const child = spawn('tinyproxy', ['-d', '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const log = (): string => readFileSync(logFile, 'utf8');
  await listening(port, child, () => `${stderr}${log()}`);
  const at = (pw: string): string => `http://${encodeURIComponent(user)}:${encodeURIComponent(pw)}@127.0.0.1:${port}`;
  return {
    port,
    url: at(password),
    urlWithPassword: at,
    connects: () => [...log().matchAll(/CONNECT (\S+)/g)].map((m) => m[1] ?? ''),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
