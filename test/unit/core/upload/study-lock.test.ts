// The per-study upload lock: held by a live process, taken over when its holder is gone (even
// when the pid was reused), and never held by two processes at once, including when several
// processes race to take over the same abandoned lock.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  acquireStudyLock,
  folderKey,
  holderIsGone,
  type LockHolder,
  locksDir,
  processStartTime,
  studyKey,
  withStudyLock,
} from '@main/core/upload/journal/study-lock';
import { UploadError } from '@main/core/upload/ports/upload-errors';
import { repoRoot } from '@support/repo-paths';

const repo = repoRoot;
const holderScript = 'test/support/lock-holder.ts';
// Where tsx cannot run (Windows Node under Wine: test/windows/unit-tests.mjs), a bundle of it.
const holderCommand = process.env['SCANBRIDGE_LOCK_HOLDER_BUNDLE']
  ? [process.env['SCANBRIDGE_LOCK_HOLDER_BUNDLE']]
  : ['--import', 'tsx', holderScript];

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'sb-lock-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

type Holder = {
  child: ChildProcess;
  line: Promise<{ acquired: boolean; pid?: number }>;
  exited: Promise<number | null>;
};

function holder(startAt: number, holdMs: number, keys: string[]): Holder {
  const child = spawn(process.execPath, [...holderCommand, dataDir, String(startAt), String(holdMs), ...keys], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const rl = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const line = new Promise<{ acquired: boolean; pid?: number }>((resolve, reject) => {
    rl.once('line', (l) => resolve(JSON.parse(l) as { acquired: boolean; pid?: number }));
    child.once('exit', (code) => reject(new Error(`holder exited (${code}) before answering`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, line, exited };
}

/** The one generation file of the only key locked in this test's data folder. */
function lockFile(): string {
  const dir = locksDir(dataDir);
  return join(dir, readdirSync(dir).find((n) => /\.\d+$/.test(n)) as string);
}

describe('study lock', () => {
  it('is exclusive within a process and free again once released', async () => {
    const a = await acquireStudyLock(dataDir, [studyKey('1.2.3')]);
    expect(a.kind).toBe('acquired');
    const b = await acquireStudyLock(dataDir, [studyKey('1.2.3'), folderKey('/x')]);
    expect(b).toMatchObject({ kind: 'held', key: studyKey('1.2.3'), holder: { pid: process.pid } });
    // The key it did get (the folder) was given back when the study was refused.
    const folderOnly = await acquireStudyLock(dataDir, [folderKey('/x')]);
    expect(folderOnly.kind).toBe('acquired');
    if (a.kind === 'acquired') a.lock.release();
    const c = await acquireStudyLock(dataDir, [studyKey('1.2.3')]);
    expect(c.kind).toBe('acquired');
    if (c.kind === 'acquired') c.lock.release();
    if (folderOnly.kind === 'acquired') folderOnly.lock.release();
  });

  it('keeps its files private (folder 0700, files 0600)', async () => {
    const a = await acquireStudyLock(dataDir, [studyKey('9')]);
    if (a.kind === 'acquired') a.lock.release();
    const dir = locksDir(dataDir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const names = readdirSync(dir);
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) expect(statSync(join(dir, n)).mode & 0o777).toBe(0o600);
  });

  it('refuses while another live process holds it, naming its pid, and waits for it with waitMs', async () => {
    const h = holder(0, 1500, [studyKey('4.5.6')]);
    expect(await h.line).toEqual({ acquired: true });
    const refused = await acquireStudyLock(dataDir, [studyKey('4.5.6')]);
    expect(refused).toMatchObject({ kind: 'held', holder: { pid: h.child.pid } });
    await expect(withStudyLock(dataDir, [studyKey('4.5.6')], () => Promise.resolve(1))).rejects.toMatchObject({
      code: 'busy',
      resumable: true,
      message: expect.stringContaining(`pid ${h.child.pid}`) as string,
    });
    // The holder exits normally after 1.5 s and frees it: a waiting taker gets it then.
    const waited = await acquireStudyLock(dataDir, [studyKey('4.5.6')], { waitMs: 10_000, pollMs: 50 });
    expect(waited.kind).toBe('acquired');
    if (waited.kind === 'acquired') waited.lock.release();
    expect(await h.exited).toBe(0);
  });

  it('is taken over when its holder was killed', async () => {
    const h = holder(0, 60_000, [studyKey('7.7')]);
    expect(await h.line).toEqual({ acquired: true });
    h.child.kill('SIGKILL');
    await h.exited;
    const taken = await acquireStudyLock(dataDir, [studyKey('7.7')]);
    expect(taken.kind).toBe('acquired');
    if (taken.kind === 'acquired') taken.lock.release();
  });

  it('treats a live pid that names another process now as a reused pid (the holder is gone)', async () => {
    // A holder killed, and its pid then taken by another live process: here, a sibling's pid is
    // written into its record. Linux tells them apart by start time, Windows by the holder's pipe.
    const dead = holder(0, 60_000, [studyKey('reused')]);
    expect(await dead.line).toEqual({ acquired: true });
    const record = JSON.parse(readFileSync(lockFile(), 'utf8')) as LockHolder;
    expect(holderIsGone(record)).toBe(false);
    dead.child.kill('SIGKILL');
    await dead.exited;
    const sibling = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const pid = sibling.pid as number;
      expect(holderIsGone({ ...record, pid })).toBe(true);
      // The lock is taken over at once, not waited for.
      writeFileSync(lockFile(), JSON.stringify({ ...record, pid }));
      const taken = await acquireStudyLock(dataDir, [studyKey('reused')]);
      expect(taken.kind).toBe('acquired');
      if (taken.kind === 'acquired') taken.lock.release();
    } finally {
      sibling.kill('SIGKILL');
    }
    // A holder on another computer cannot be checked: it is assumed alive.
    expect(holderIsGone({ ...record, host: 'elsewhere', pid: 999_999_999, started: null })).toBe(false);
  });

  it.runIf(processStartTime(process.pid) !== null)('compares start times where the OS gives them (Linux)', () => {
    const base = { host: hostname(), nonce: 'n', key: 'k', at: '' };
    // pid 1 is alive, but it did not start at the time this record claims.
    expect(holderIsGone({ ...base, pid: 1, started: `${Number(processStartTime(1)) + 12345}` })).toBe(true);
    expect(holderIsGone({ ...base, pid: 1, started: processStartTime(1) })).toBe(false);
  });

  it('takes over an abandoned lock exactly once when eight processes race for it', async () => {
    // An abandoned lock: generation 1 held by a pid that started at another time (a reused pid).
    const h = holder(0, 60_000, [studyKey('race')]);
    expect(await h.line).toEqual({ acquired: true });
    h.child.kill('SIGKILL');
    await h.exited;
    const dir = locksDir(dataDir);
    const gen = readdirSync(dir).find((n) => /\.\d+$/.test(n)) as string;
    const record = JSON.parse(readFileSync(join(dir, gen), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, gen), JSON.stringify({ ...record, pid: 1, started: '1' }));

    const startAt = Date.now() + 2500;
    const racers = Array.from({ length: 8 }, () => holder(startAt, 3000, [studyKey('race')]));
    const answers = await Promise.all(racers.map((r) => r.line));
    const winners = racers.filter((_, i) => answers[i]?.acquired);
    expect(winners).toHaveLength(1);
    const winnerPid = winners[0]?.child.pid;
    for (const a of answers) if (!a.acquired) expect(a.pid).toBe(winnerPid);
    await Promise.all(racers.map((r) => r.exited));
  }, 60_000);

  it('gives an UploadError the queue can retry', async () => {
    const a = await acquireStudyLock(dataDir, [studyKey('q')]);
    const err = await withStudyLock(dataDir, [studyKey('q')], () => Promise.resolve('ran')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UploadError);
    if (a.kind === 'acquired') a.lock.release();
    expect(await withStudyLock(dataDir, [studyKey('q')], () => Promise.resolve('ran'))).toBe('ran');
  });
});
