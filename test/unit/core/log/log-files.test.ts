// The log's files (CONTRACTS.md §3): one a day, private, pruned past 14 days or 100 MB, shared by
// several processes without lost or mixed lines; SCANBRIDGE_LOG_LEVEL; fields of the wrong shape
// never written.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Logger, localDay, openLog, pruneLogs, studyHash } from '@main/core/log';
import { repoRoot } from '@support/repo-paths';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sb-log-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const logDir = (): string => join(dir, 'logs');
const linesOf = (file: string): Record<string, unknown>[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const day = (y: number, m: number, d: number, h = 12): Date => new Date(y, m - 1, d, h);

describe('the log files', () => {
  it('writes JSON lines with time, level, msg, pid and cmd into the day of the computer, a new file each day', () => {
    let now = day(2026, 3, 9, 23);
    const log = openLog({ dataDir: dir, cmd: 'watch', env: {}, now: () => now });
    log.info('export ready', { folder: 'cli-1', count: 2 });
    now = day(2026, 3, 10, 0);
    log.warn('upload will retry', { job: 'job_1', code: 'network_error' });
    log.close();
    expect(readdirSync(logDir()).sort()).toEqual(['scanbridge-2026-03-09.log', 'scanbridge-2026-03-10.log']);
    const [first] = linesOf(join(logDir(), 'scanbridge-2026-03-09.log'));
    expect(first).toEqual({
      level: 'info',
      time: day(2026, 3, 9, 23).toISOString(),
      pid: process.pid,
      cmd: 'watch',
      folder: 'cli-1',
      count: 2,
      msg: 'export ready',
    });
    expect(linesOf(join(logDir(), 'scanbridge-2026-03-10.log'))[0]).toMatchObject({ level: 'warn', job: 'job_1' });
  });

  it('keeps the folder 0700 and the files 0600, and tightens a file or folder left readable by others', () => {
    const old = process.umask(0);
    try {
      mkdirSync(logDir(), { mode: 0o755 });
      const today = join(logDir(), `scanbridge-${localDay(new Date())}.log`);
      writeFileSync(today, '', { mode: 0o644 });
      chmodSync(today, 0o644);
      const log = openLog({ dataDir: dir, cmd: 'upload', env: {} });
      log.info('command started');
      log.close();
      expect(statSync(logDir()).mode & 0o777).toBe(0o700);
      expect(statSync(today).mode & 0o777).toBe(0o600);
      // A fresh day's file is made private from the start, whatever the umask.
      const next = openLog({ dataDir: dir, cmd: 'upload', env: {}, now: () => day(2030, 1, 1) });
      next.info('command started');
      next.close();
      expect(statSync(join(logDir(), 'scanbridge-2030-01-01.log')).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(old);
    }
  });

  it('removes files older than 14 days when a day opens, and keeps 14 days (today included)', () => {
    mkdirSync(logDir(), { recursive: true });
    for (let d = 1; d <= 20; d++) writeFileSync(join(logDir(), `scanbridge-${localDay(day(2026, 5, d))}.log`), '{}\n');
    writeFileSync(join(logDir(), 'notes.txt'), 'not a log file: left alone');
    const log = openLog({ dataDir: dir, cmd: 'app', env: {}, now: () => day(2026, 5, 20) });
    log.info('app started');
    log.close();
    const kept = readdirSync(logDir()).sort();
    expect(kept).toHaveLength(15);
    expect(kept[0]).toBe('notes.txt');
    expect(kept[1]).toBe('scanbridge-2026-05-07.log');
    expect(kept.at(-1)).toBe('scanbridge-2026-05-20.log');
  });

  it('removes the oldest files past 100 MB in all, never today’s', () => {
    mkdirSync(logDir(), { recursive: true });
    // Sparse files: their size counts, no disk is used.
    const sized = (d: number, mb: number): string => {
      const f = join(logDir(), `scanbridge-2026-05-${String(d).padStart(2, '0')}.log`);
      writeFileSync(f, '');
      truncateSync(f, mb * 1024 * 1024);
      return f;
    };
    sized(15, 30);
    sized(16, 30);
    sized(17, 30);
    sized(18, 30);
    sized(20, 25);
    const removed = pruneLogs(logDir(), '2026-05-20');
    expect(removed).toEqual(['scanbridge-2026-05-15.log', 'scanbridge-2026-05-16.log']);
    // Today's file alone over the limit: kept (the writer stops adding to it instead).
    sized(20, 120);
    expect(pruneLogs(logDir(), '2026-05-20')).toEqual(['scanbridge-2026-05-17.log', 'scanbridge-2026-05-18.log']);
    expect(readdirSync(logDir())).toEqual(['scanbridge-2026-05-20.log']);
  });

  it('stops writing into a day whose file has reached the size limit (a runaway loop cannot fill the disk)', () => {
    const today = localDay(new Date());
    mkdirSync(logDir(), { recursive: true });
    const f = join(logDir(), `scanbridge-${today}.log`);
    writeFileSync(f, '');
    truncateSync(f, 100 * 1024 * 1024);
    const log = openLog({ dataDir: dir, cmd: 'app', env: {} });
    log.error('start-up failed', { code: 'EACCES' });
    log.close();
    expect(statSync(f).size).toBe(100 * 1024 * 1024);
  });

  it('writes the levels SCANBRIDGE_LOG_LEVEL asks for (info when unset or unknown)', () => {
    const levels = (env: NodeJS.ProcessEnv): string[] => {
      rmSync(logDir(), { recursive: true, force: true });
      const log = openLog({ dataDir: dir, cmd: 'doctor', env });
      log.debug('d');
      log.info('i');
      log.warn('w');
      log.error('e');
      log.close();
      return linesOf(join(logDir(), readdirSync(logDir())[0] ?? '')).map((l) => String(l['level']));
    };
    expect(levels({})).toEqual(['info', 'warn', 'error']);
    expect(levels({ SCANBRIDGE_LOG_LEVEL: 'debug' })).toEqual(['debug', 'info', 'warn', 'error']);
    expect(levels({ SCANBRIDGE_LOG_LEVEL: 'WARN' })).toEqual(['warn', 'error']);
    expect(levels({ SCANBRIDGE_LOG_LEVEL: 'verbose' })).toEqual(['info', 'warn', 'error']);
  });

  it('replaces a field or a message of the wrong shape instead of writing it', () => {
    const log = openLog({ dataDir: dir, cmd: 'watch', env: {} });
    const loose = log as unknown as { warn(msg: string, f: Record<string, unknown>): void };
    loose.warn('study failed', {
      folder: '/exports/GONZALEZ^MARIA',
      exam_id: 'exm_1 María',
      code: 'ENOENT',
      study: '1.2.840.10008.99',
      patient_name: 'GONZALEZ^MARIA',
      ms: Number.NaN,
    });
    loose.warn('study of GONZALEZ^MARIA failed', { study: studyHash('1.2.840.10008.99') });
    log.close();
    const [a, b] = linesOf(join(logDir(), readdirSync(logDir())[0] ?? ''));
    expect(a).toMatchObject({
      folder: '[invalid]',
      exam_id: '[invalid]',
      code: 'ENOENT',
      study: '[invalid]',
      ms: '[invalid]',
    });
    expect(a).not.toHaveProperty('patient_name');
    expect(b).toMatchObject({ msg: '[invalid]', study: studyHash('1.2.840.10008.99') });
    expect(JSON.stringify([a, b])).not.toMatch(/GONZALEZ|MARIA|María|10008/);
  });

  it('takes only string literals as messages (a message built from data does not compile)', () => {
    const check = (log: Logger, name: string): void => {
      // @ts-expect-error a template literal with a value in it is not a constant
      log.info(`study of ${name}`);
      // @ts-expect-error a string variable is not a constant
      log.info(name);
      log.info('study found');
    };
    expect(check).toBeTypeOf('function');
  });

  it('keeps every line whole when several processes write the same day at once', async () => {
    const writers = 4;
    const each = 1500;
    const script = join(dir, 'writer.mts');
    writeFileSync(
      script,
      `import { openLog } from '${join(repoRoot, 'main/core/log/index.ts')}';\n` +
        `const log = openLog({ dataDir: ${JSON.stringify(dir)}, cmd: 'upload', env: {} });\n` +
        `for (let i = 0; i < ${each}; i++) log.info('upload notice', { count: i, job: 'job_' + 'x'.repeat(60), code: 'c'.repeat(70) });\n` +
        'log.close();\n',
    );
    const run = (): Promise<number | null> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: repoRoot, stdio: 'inherit' });
        child.on('close', resolve);
      });
    expect(await Promise.all(Array.from({ length: writers }, run))).toEqual(Array(writers).fill(0));
    const files = readdirSync(logDir());
    expect(files).toHaveLength(1);
    const text = readFileSync(join(logDir(), files[0] ?? ''), 'utf8');
    const lines = text.split('\n').filter((l) => l.length > 0);
    expect(lines).toHaveLength(writers * each);
    const seen = new Map<number, number[]>();
    for (const l of lines) {
      const o = JSON.parse(l) as { pid: number; count: number };
      seen.set(o.pid, [...(seen.get(o.pid) ?? []), o.count]);
    }
    expect(seen.size).toBe(writers);
    for (const counts of seen.values()) expect(counts).toEqual(Array.from({ length: each }, (_, i) => i));
  });
});
