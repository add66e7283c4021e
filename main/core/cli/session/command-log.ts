// The log a command writes (CONTRACTS.md §3): the day's file in the data folder, with warnings and
// errors also on the terminal's stderr for the commands that run unattended (watch, receive, serve).
import { errorCode, type FileLog, openLog } from '../../log';
import { appDataDir } from '../../paths';
import type { CliIo } from './io';

/** Opens the command's log and writes its first line. */
export function openCommandLog(io: CliIo, cmd: string, o: { dataDir?: string; echo?: boolean } = {}): FileLog {
  const log = openLog({
    dataDir: o.dataDir ?? appDataDir(io.env),
    cmd,
    env: io.env,
    ...(o.echo ? { echo: io.stderr } : {}),
  });
  log.info('command started');
  return log;
}

/** The command's last line (its exit code and how long it ran), then the file closed. */
export function closeCommandLog(log: FileLog, exit: number, startedAt: number): void {
  log.info('command ended', { exit, ms: Date.now() - startedAt });
  log.close();
}

/**
 * Runs a command's work with its log open: the first and last lines written, an unexpected error
 * logged by its code (its message may quote a path) before it goes on up.
 */
export async function withCommandLog(io: CliIo, cmd: string, run: (log: FileLog) => Promise<number>): Promise<number> {
  const startedAt = Date.now();
  const log = openCommandLog(io, cmd);
  let exit = 1;
  try {
    exit = await run(log);
    return exit;
  } catch (e) {
    log.error('command failed', { code: errorCode(e) });
    throw e;
  } finally {
    closeCommandLog(log, exit, startedAt);
  }
}
