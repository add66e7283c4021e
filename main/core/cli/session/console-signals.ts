// Ctrl+C and a closed console window on Windows must stop a command as cleanly as SIGINT/SIGTERM
// do on Linux ("Stopping… Stopped.", exit 0; an upload says "interrupted", 130; no lock left).
//
// Libraries that clean up on exit (here conf → atomically → when-exit; signal-exit works the same
// way) catch a signal once, run their clean-up and then send the signal to their own process
// again, expecting it to reach the program's own listener (or, with none left, to end the process
// as the signal would have). On POSIX that is what happens. On Windows a process cannot signal
// itself: Node's `process.kill(process.pid, 'SIGINT')` is TerminateProcess with exit code 1, so the
// first Ctrl+C killed the command before it could stop. `keepSelfSignalsCatchable` makes a
// termination signal a process sends itself on Windows behave as on POSIX: delivered to the
// process's listeners when it has any, the old TerminateProcess when it has none. What else differs
// on Windows, and what CI cannot show there: main/docs/windows.md.
import { constants } from 'node:os';

/** The signals Node emulates on Windows (Ctrl+C, Ctrl+Break, console closed) plus SIGTERM. */
const TERMINATION_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'];

const signalNamed = (signal: string | number | undefined): NodeJS.Signals | undefined => {
  if (signal === undefined) return 'SIGTERM';
  if (typeof signal === 'string') return TERMINATION_SIGNALS.find((s) => s === signal);
  return TERMINATION_SIGNALS.find((s) => (constants.signals as Record<string, number>)[s] === signal);
};

let installed = false;

/** See the file comment. Does nothing outside Windows, where a process can signal itself. */
export function keepSelfSignalsCatchable(platform: NodeJS.Platform = process.platform): void {
  if (platform !== 'win32' || installed) return;
  installed = true;
  const kill = process.kill.bind(process);
  process.kill = (pid: number, signal?: string | number): true => {
    const name = signalNamed(signal);
    if (pid === process.pid && name !== undefined && process.listenerCount(name) > 0) {
      // Asynchronous, as a delivered signal is: the sender's own clean-up finishes first.
      setImmediate(() => process.emit(name, name));
      return true;
    }
    return kill(pid, signal);
  };
}

/**
 * The signals that ask a command to stop: SIGINT (Ctrl+C) and SIGTERM everywhere; on Windows also
 * SIGHUP (the console window closed; Windows ends the process about 10 s later) and SIGBREAK
 * (Ctrl+Break). SIGHUP is left alone elsewhere so that `nohup scanbridge watch …` keeps running.
 */
export function stopSignals(platform: NodeJS.Platform = process.platform): NodeJS.Signals[] {
  return platform === 'win32' ? ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] : ['SIGINT', 'SIGTERM'];
}
