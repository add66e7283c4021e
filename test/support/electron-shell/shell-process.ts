// The bundled desktop shell running in a child process against the Electron double (host.ts), and
// the test's handle on it: requests, waits for a state (woken by the host's change notices, not by
// a clock), the state at quit and the process's exit.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { DoubleOptions } from './double';
import { DOUBLE_OPTIONS_ENV } from './protocol';
import type { HostMessage, ShellCommand, ShellRequests, ShellState } from './protocol';
import { repoRoot } from '../repo-paths';

const root = repoRoot;
const host = fileURLToPath(new URL('./host.ts', import.meta.url));

export type ShellExit = { code: number | null; signal: NodeJS.Signals | null };

export class ShellProcess {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly changeWaiters = new Set<() => void>();
  private err = '';
  private exit: ShellExit | null = null;
  /** The process's end (by itself, or killed by stop()). */
  readonly exited: Promise<ShellExit>;
  /** The shell's state when the app quit (rejected when the process ended without quitting). */
  readonly quit: Promise<ShellState>;

  private constructor(private readonly child: ChildProcess) {
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      this.err += d;
    });
    let onQuit: (s: ShellState) => void = () => undefined;
    let noQuit: (e: Error) => void = () => undefined;
    this.quit = new Promise<ShellState>((resolve, reject) => {
      onQuit = resolve;
      noQuit = reject;
    });
    // Awaited by the tests that quit; the others must not see it as an unhandled rejection.
    this.quit.catch(() => undefined);
    child.on('message', (message: HostMessage) => {
      if (message.kind === 'reply') {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.ok) waiting?.resolve(message.result);
        else waiting?.reject(new Error(message.error));
        return;
      }
      if (message.kind === 'quit') onQuit(message.state);
      this.wake();
    });
    this.exited = new Promise<ShellExit>((resolve) => {
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        const gone = new Error(`The shell process ended (${code ?? signal}): ${this.err}`);
        for (const waiting of this.pending.values()) waiting.reject(gone);
        this.pending.clear();
        noQuit(gone);
        this.wake();
        resolve({ code, signal });
      });
    });
  }

  /** Starts main/.build/index.cjs of this repository with the double's options and this environment. */
  static start(double: Omit<DoubleOptions, 'appPath'>, env: NodeJS.ProcessEnv): ShellProcess {
    const options: DoubleOptions = { ...double, appPath: root };
    const child = fork(host, [], {
      cwd: root,
      execArgv: ['--import', 'tsx'],
      env: { ...env, [DOUBLE_OPTIONS_ENV]: JSON.stringify(options) },
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    return new ShellProcess(child);
  }

  /** What the shell wrote on stderr (its log). */
  stderr(): string {
    return this.err;
  }

  request<K extends ShellCommand>(cmd: K, args: ShellRequests[K]['args']): Promise<ShellRequests[K]['result']> {
    if (this.exit) return Promise.reject(new Error(`The shell process has ended: ${this.err}`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, cmd, args });
    });
  }

  state(): Promise<ShellState> {
    return this.request('state', {});
  }

  /** Waits until `pick` finds something in the shell's state, re-reading it after every change. */
  async until<T>(what: string, pick: (s: ShellState) => T | null | undefined | false, timeoutMs = 60_000): Promise<T> {
    let timedOut = false;
    let wakeOnTimeout: () => void = () => undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      wakeOnTimeout();
    }, timeoutMs);
    try {
      for (;;) {
        const changed = new Promise<void>((resolve) => {
          wakeOnTimeout = resolve;
          this.changeWaiters.add(resolve);
        });
        const found = pick(await this.state());
        if (found !== null && found !== undefined && found !== false) return found;
        await changed;
        if (timedOut) throw new Error(`The shell did not reach "${what}" in ${timeoutMs} ms. Its log:\n${this.err}`);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** The state at quit, once the app has quit; fails, saying how far it got, when it has not in `timeoutMs`. */
  async quitWithin(timeoutMs = 60_000): Promise<ShellState> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        const said = (how: string): void =>
          reject(new Error(`The app did not quit in ${timeoutMs} ms (${how}). Its log:\n${this.err}`));
        this.state().then(
          (s) => said(`quit asked ${s.quitRequests} times, refused by a window ${s.quitsRefusedByWindow} times`),
          (e: unknown) => said(String(e)),
        );
      }, timeoutMs);
    });
    try {
      return await Promise.race([this.quit, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the process if it is still running (after a failed test). */
  async stop(): Promise<void> {
    if (this.exit) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  private wake(): void {
    const waiters = [...this.changeWaiters];
    this.changeWaiters.clear();
    for (const w of waiters) w();
  }
}
