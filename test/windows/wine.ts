// Windows processes for the Windows job (run.sh): Node for Windows (node.exe) under Wine, running
// the `scanbridge` bundle as a clinic's Windows computer would. What run.sh prepared arrives in
// environment variables; what Wine 8 needs is handled here: node.exe cannot write to a Unix pipe
// (its stdout and stderr go to files), Ctrl+C is SIGINT to the process (Wine turns it into the
// console's CTRL_C_EVENT), kill -9 ends it without any clean-up, as a crash or a power cut would.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const need = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the Windows job through test/windows/run.sh`);
  return v;
};

/** What run.sh prepared: the Wine prefix, node.exe, the bundle and a folder for output files. */
export const wine = {
  prefix: need('WINEPREFIX'),
  nodeExe: need('SCANBRIDGE_WIN_NODE'),
  /** The CLI bundle's entry, as a Windows path. */
  cli: need('SCANBRIDGE_WIN_CLI'),
  logs: need('SCANBRIDGE_WIN_LOGS'),
  /** Where Wine keeps its server's socket: the same for every Wine process of the job. */
  tmp: need('SCANBRIDGE_WIN_TMP'),
};

/** The Windows name of a Linux path (Wine maps the Unix root to drive Z:). */
export function winPath(linuxPath: string): string {
  return `Z:${linuxPath.replaceAll('/', '\\')}`;
}

/** The Linux path of a folder on the prefix's drive C:, e.g. cDrive('Exportaciones escáner'). */
export function cDrive(...parts: string[]): string {
  return join(wine.prefix, 'drive_c', ...parts);
}

/** The Windows user's app data folder (%APPDATA%\ScanBridge, the default data folder), on the Linux side. */
export function appDataScanBridge(): string {
  const users = cDrive('users');
  const user = readdirSync(users).find((n) => n !== 'Public' && existsSync(join(users, n, 'AppData')));
  if (!user) throw new Error(`no Windows user profile in ${users}`);
  return join(users, user, 'AppData', 'Roaming', 'ScanBridge');
}

let serial = 0;
const started = new Set<ChildProcess>();

/** Ends every Windows process a test started and left running (a failed test's watcher). */
export async function killLeftovers(): Promise<void> {
  const alive = [...started].filter((c) => c.exitCode === null && c.signalCode === null);
  await Promise.all(
    alive.map((c) => {
      const gone = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      return gone;
    }),
  );
}

export type WinProcess = {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  /** Ctrl+C in the process's console. */
  ctrlC: () => void;
  /** Ends it at once, with no clean-up (kill -9). */
  kill9: () => void;
  waitFor: (check: (p: WinProcess) => boolean, timeoutMs: number, what: string) => Promise<void>;
};

/** Starts `node.exe <script> <args>` under Wine (script: a Windows path; default the CLI bundle). */
export function startWindowsNode(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; script?: string; name?: string } = {},
): WinProcess {
  mkdirSync(wine.logs, { recursive: true });
  const tag = `${String(++serial).padStart(2, '0')}-${options.name ?? args[0] ?? 'node'}`;
  const outPath = join(wine.logs, `${tag}.out`);
  const errPath = join(wine.logs, `${tag}.err`);
  const out = openSync(outPath, 'w');
  const err = openSync(errPath, 'w');
  const child = spawn('wine64', [wine.nodeExe, options.script ?? wine.cli, ...args], {
    env: {
      ...process.env,
      WINEDEBUG: '-all',
      DISPLAY: '',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TMPDIR: wine.tmp,
      ...options.env,
    },
    stdio: ['ignore', out, err],
  });
  closeSync(out);
  closeSync(err);
  started.add(child);
  const read = (path: string): string => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return '';
    }
  };
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const p: WinProcess = {
    child,
    stdout: () => read(outPath),
    stderr: () => read(errPath),
    exited,
    ctrlC: () => void child.kill('SIGINT'),
    kill9: () => void child.kill('SIGKILL'),
    waitFor: async (check, timeoutMs, what) => {
      const end = Date.now() + timeoutMs;
      let gone = false;
      void exited.then(() => (gone = true));
      for (;;) {
        if (check(p)) return;
        if (gone) {
          if (check(p)) return;
          throw new Error(`${tag} exited (${child.exitCode}) before ${what}:\n${p.stderr()}`);
        }
        if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}:\n${p.stderr()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
  return p;
}

/** Runs a Windows Node command to its end. */
export async function runWindowsNode(
  args: string[],
  options: Parameters<typeof startWindowsNode>[1] = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = startWindowsNode(args, options);
  const code = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}
