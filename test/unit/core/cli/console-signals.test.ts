// A termination signal a library sends its own process (as conf → atomically → when-exit does
// after its clean-up) reaches the process's listeners on Windows instead of TerminateProcess. Run
// in a child process, since the guard replaces process.kill for the whole process, with the
// platform given as Windows; SIGBREAK is the probe: Linux has no such signal, so only the guard can
// deliver it (Node's own process.kill refuses the name). The Windows job (test/windows/) shows the
// real Ctrl+C.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { stopSignals } from '@main/core/cli/session/console-signals';
import { repoRoot } from '@support/repo-paths';

const run = promisify(execFile);
const module = join(repoRoot, 'main', 'core', 'cli', 'session', 'console-signals.ts');

async function child(code: string): Promise<{ stdout: string; code: number | null; signal: string | null }> {
  const script = `const { keepSelfSignalsCatchable } = await import(${JSON.stringify(module)});\n${code}`;
  try {
    const r = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot });
    return { stdout: r.stdout, code: 0, signal: null };
  } catch (e) {
    const err = e as { stdout: string; code: number | null; signal: string | null };
    return { stdout: err.stdout, code: err.code, signal: err.signal };
  }
}

describe('keepSelfSignalsCatchable', () => {
  it('on Windows, delivers a signal the process sends itself to its listeners', async () => {
    const r = await child(`
      keepSelfSignalsCatchable('win32');
      process.on('SIGBREAK', (s) => console.log('listener got', s));
      console.log('kill returned', process.kill(process.pid, 'SIGBREAK'));`);
    expect(r.stdout).toBe('kill returned true\nlistener got SIGBREAK\n');
  });

  it('without a listener, leaves the signal to the OS, as before', async () => {
    const r = await child(`
      keepSelfSignalsCatchable('win32');
      process.kill(process.pid, 'SIGTERM');
      setTimeout(() => console.log('still alive'), 2000);`);
    expect(r.signal).toBe('SIGTERM');
    expect(r.stdout).toBe('');
  });

  it('does nothing elsewhere: Node refuses a signal Linux does not have', async () => {
    const r = await child(`
      keepSelfSignalsCatchable('linux');
      process.on('SIGBREAK', () => console.log('listener got it'));
      try { process.kill(process.pid, 'SIGBREAK'); } catch (e) { console.log(e.code); }`);
    expect(r.stdout).toBe('ERR_UNKNOWN_SIGNAL\n');
  });

  it('stops on a closed console and Ctrl+Break only on Windows (nohup keeps a Linux watcher alive)', () => {
    expect(stopSignals('win32')).toEqual(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK']);
    expect(stopSignals('linux')).toEqual(['SIGINT', 'SIGTERM']);
  });
});
