// `scanbridge serve` as the end-to-end tests run it: a real process with its own data and settings
// folders, pointed at the emulator, and (when D-Bus and gnome-keyring are installed) its own private
// unlocked keyring, so tests never see each other's keys nor touch the keyring of whoever runs them.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from '../repo-paths';

const root = repoRoot;

export type Keychain = 'private' | 'none' | 'no-module';

export type ServeOptions = {
  apiUrl: string;
  /**
   * `private`: a fresh gnome-keyring on a private D-Bus session; `none`: no keychain service at all;
   * `no-module`: no keychain service and no keytar module (as where `npm ci` could not build it).
   */
  keychain?: Keychain;
  /** The process locale (LANG), e.g. `es_ES.UTF-8`. */
  lang?: string;
  /** Reuse folders from an earlier process (restart tests). */
  home?: string;
  /** More environment (e.g. HTTPS_PROXY, SCANBRIDGE_CA_FILE). */
  env?: NodeJS.ProcessEnv;
};

export type ServeInfo = { url: string; port: number; token: string };

const has = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

/** True when a private keyring can be started here. */
export const privateKeyringAvailable = (): boolean => has('dbus-run-session') && has('gnome-keyring-daemon');

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * True while a process of the group still runs. A member that has ended but waits to be reaped does
 * not count: when `dbus-run-session` goes first, serve and the keyring are left to the system's init,
 * which may reap them a second or more later, and `kill(-pgid, 0)` still finds them until then.
 */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true; // No /proc here: the signal probe is all there is.
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // Gone meanwhile.
    }
    // Fields after the command name (which may hold spaces): state, ppid, pgrp, …
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(group) === pgid && state !== 'Z') return true;
  }
  return false;
}

export class ServeProcess {
  private constructor(
    readonly info: ServeInfo,
    readonly home: string,
    readonly keychain: Keychain,
    private readonly child: ChildProcess,
    readonly stderr: () => string,
  ) {}

  get dataDir(): string {
    return join(this.home, 'data');
  }

  get configDir(): string {
    return join(this.home, 'config');
  }

  static async start(options: ServeOptions): Promise<ServeProcess> {
    const home = options.home ?? mkdtempSync(join(tmpdir(), 'sb-e2e-serve-'));
    mkdirSync(join(home, 'data'), { recursive: true });
    mkdirSync(join(home, 'config'), { recursive: true });
    const keychain: Keychain =
      options.keychain === 'none' || options.keychain === 'no-module'
        ? options.keychain
        : privateKeyringAvailable()
          ? 'private'
          : 'none';
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: home,
      XDG_DATA_HOME: join(home, 'xdg-data'),
      XDG_CONFIG_HOME: join(home, 'xdg-config'),
      SCANBRIDGE_DATA_DIR: join(home, 'data'),
      SCANBRIDGE_CONFIG_DIR: join(home, 'config'),
      SCANBRIDGE_API_URL: options.apiUrl,
      LANG: options.lang ?? 'en_US.UTF-8',
      LC_ALL: '',
      LC_MESSAGES: '',
      ...options.env,
    };
    delete env['SCANBRIDGE_API_KEY'];
    const serve = [process.execPath, 'main/bin/scanbridge.mjs', 'serve', '--port', '0'];
    let child: ChildProcess;
    if (keychain === 'private') {
      // The keyring runs in the foreground so it stays in this process group and ends with it; serve
      // starts once the keyring owns its bus name (else its first keychain call would find none).
      const script = [
        'printf %s e2e | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 &',
        'i=0; until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q true; do i=$((i+1)); [ $i -gt 100 ] && break; sleep 0.05; done',
        'exec "$@"',
      ].join('\n');
      child = spawn('dbus-run-session', ['--', 'sh', '-c', script, 'sh', ...serve], {
        cwd: root,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } else {
      if (keychain === 'no-module')
        env['NODE_OPTIONS'] =
          `${env['NODE_OPTIONS'] ?? ''} --import ${join(root, 'test', 'support', 'e2e', 'without-keytar.mjs')}`.trim();
      // A bus address that leads nowhere: libsecret fails at once, as on a machine without a keyring.
      env['DBUS_SESSION_BUS_ADDRESS'] = `unix:path=${join(home, 'no-bus')}`;
      child = spawn(serve[0] as string, serve.slice(1), {
        cwd: root,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    }
    let err = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    const stdout = child.stdout;
    if (!stdout) throw new Error('no stdout pipe');
    const line = await new Promise<string>((resolve, reject) => {
      const rl = createInterface({ input: stdout });
      const timer = setTimeout(() => reject(new Error(`scanbridge serve did not start in 30 s: ${err}`)), 30_000);
      rl.once('line', (l) => {
        clearTimeout(timer);
        resolve(l);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`scanbridge serve exited with ${code}: ${err}`));
      });
    });
    const info = JSON.parse(line) as ServeInfo;
    return new ServeProcess(info, home, keychain, child, () => err);
  }

  /** Calls a contract method over the bridge (as the window does), returning the result or throwing the error. */
  async rpc<T = unknown>(method: string, args: unknown = {}): Promise<T> {
    const res = await fetch(`http://127.0.0.1:${this.info.port}/rpc/${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${this.info.token}` },
      body: JSON.stringify(args),
    });
    const body = (await res.json()) as { result?: T; error?: { code: string; message: string } };
    if (!res.ok) throw new Error(`${method} → ${res.status} ${body.error?.code}: ${body.error?.message}`);
    return body.result as T;
  }

  /**
   * Stops the whole process group (serve, and the private bus and keyring when there are): SIGTERM,
   * then SIGKILL for whatever is still there after 6 s, so no test leaves a process behind.
   */
  async stop(): Promise<void> {
    const pid = this.child.pid;
    if (pid === undefined || !groupAlive(pid)) return;
    const wait = async (ms: number): Promise<void> => {
      for (const end = Date.now() + ms; groupAlive(pid) && Date.now() < end;)
        await new Promise((r) => setTimeout(r, 50));
    };
    signalGroup(pid, 'SIGTERM');
    await wait(6_000);
    if (groupAlive(pid)) {
      this.forcedStops += 1;
      signalGroup(pid, 'SIGKILL');
      await wait(5_000);
    }
  }

  /** How many times `stop` had to kill the process because it did not end on SIGTERM. */
  forcedStops = 0;

  /** Stops and removes the folders. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}
