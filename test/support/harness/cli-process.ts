// The `scanbridge` command as a real process: the built CLI run by this Node, from the repo root,
// with its output gathered, for the tests that drive it from outside (CONTRACTS.md §2).
import { type ChildProcess, spawn } from 'node:child_process';
import { cliBin, repoRoot } from '../repo-paths';

/** How a command ended: its exit code and everything it printed. */
export type CliRun = { code: number | null; stdout: string; stderr: string };

/** Starts `scanbridge <args>` with `env`; `done` settles when it has exited and closed its streams. */
export function startCli(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(process.execPath, [cliBin, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<CliRun>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}
