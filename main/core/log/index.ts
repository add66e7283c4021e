// The log of CONTRACTS.md §3: the app and every command that does work open one `FileLog` at start
// and hand it down; lines are JSON (pino) in the day's file of `<data dir>/logs/`. What a line may
// hold is set by `Logger` (logger.ts); where lines go and how long they stay, by log-files.ts.
import { readFileSync } from 'node:fs';
import pino from 'pino';
import { DailyLogFile, daysBefore, listLogFiles, logDirOf } from './log-files';
import {
  cleanFields,
  cleanMessage,
  LOG_LEVELS,
  type LogFields,
  type Logger,
  type LogLevel,
  type LogMethod,
} from './logger';

export * from './logger';
export { daysBefore, listLogFiles, localDay, LOG_FILE_RE, logDirOf, logFileName, pruneLogs } from './log-files';
export type { LogFile } from './log-files';

/** The level `SCANBRIDGE_LOG_LEVEL` asks for (`info` when unset or not a level). */
export function logLevelFrom(env: NodeJS.ProcessEnv): LogLevel {
  const asked = env['SCANBRIDGE_LOG_LEVEL']?.trim().toLowerCase();
  return (LOG_LEVELS as readonly string[]).includes(asked ?? '') ? (asked as LogLevel) : 'info';
}

export type OpenLogOptions = {
  dataDir: string;
  /** The command (`upload`, `watch`…) or `app`. */
  cmd: string;
  env?: NodeJS.ProcessEnv;
  /** Also writes each line of `echoLevel` or above, as one line of text, here (a terminal's stderr). */
  echo?: ((text: string) => void) | undefined;
  echoLevel?: LogLevel;
  /** The clock (tests move it across days). */
  now?: () => Date;
};

/** A logger on the day's file. */
export type FileLog = Required<Logger> & {
  /** The log folder. */
  dir: string;
  level: LogLevel;
  close(): void;
};

const rank = (l: LogLevel): number => LOG_LEVELS.indexOf(l);

function echoText(time: string, cmd: string, level: LogLevel, msg: string, f: Record<string, unknown>): string {
  const extra = Object.entries(f).map(([k, v]) => ` ${k}=${String(v)}`);
  return `${time} scanbridge ${cmd} ${level}: ${msg}${extra.join('')}\n`;
}

/** Opens the log of `dataDir` for this process (the folder and today's file are made on the first line). */
export function openLog(o: OpenLogOptions): FileLog {
  const env = o.env ?? process.env;
  const now = o.now ?? ((): Date => new Date());
  const level = logLevelFrom(env);
  const dir = logDirOf(o.dataDir);
  const file = new DailyLogFile({ dir, now });
  const p = pino(
    {
      level,
      base: { pid: process.pid, cmd: o.cmd },
      timestamp: () => `,"time":"${now().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
      messageKey: 'msg',
    },
    file,
  );
  const echoLevel = o.echoLevel ?? 'warn';
  const method =
    (l: LogLevel): LogMethod =>
    (msg, fields?: LogFields) => {
      const f = cleanFields(fields);
      const m = cleanMessage(msg);
      p[l](f, m);
      if (o.echo && rank(l) >= rank(echoLevel) && rank(l) >= rank(level))
        o.echo(echoText(now().toISOString(), o.cmd, l, m, f));
    };
  return {
    dir,
    level,
    debug: method('debug'),
    info: method('info'),
    warn: method('warn'),
    error: method('error'),
    close: () => file.close(),
  };
}

/** A logger on a terminal's stderr only (no data folder: the demo's --verbose). */
export function stderrLog(cmd: string, write: (text: string) => void = (t) => void process.stderr.write(t)): Logger {
  const method =
    (l: LogLevel): LogMethod =>
    (msg, fields) =>
      write(echoText(new Date().toISOString(), cmd, l, cleanMessage(msg), cleanFields(fields)));
  return { debug: method('debug'), info: method('info'), warn: method('warn'), error: method('error') };
}

/** The log's lines of the last `days` days (today counts as one), oldest first, per file. */
export function readLogDays(dir: string, days: number, today: string): { name: string; lines: string[] }[] {
  const oldest = daysBefore(today, Math.max(1, days) - 1);
  return listLogFiles(dir)
    .filter((f) => f.day >= oldest && f.day <= today)
    .map((f) => {
      let text = '';
      try {
        text = readFileSync(f.path, 'utf8');
      } catch {
        // Removed meanwhile.
      }
      return { name: f.name, lines: text.split('\n').filter((l) => l.length > 0) };
    });
}

/** The last `n` lines of the log, oldest first (reads back from the newest files). */
export function lastLogLines(dir: string, n: number): string[] {
  const files = listLogFiles(dir).reverse();
  const out: string[] = [];
  for (const f of files) {
    if (out.length >= n) break;
    let text = '';
    try {
      text = readFileSync(f.path, 'utf8');
    } catch {
      continue;
    }
    const lines = text.split('\n').filter((l) => l.length > 0);
    out.unshift(...lines.slice(-(n - out.length)));
  }
  return out;
}
