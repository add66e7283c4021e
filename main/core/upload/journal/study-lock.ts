// One upload of a study at a time among the processes of one computer (the app, `serve`, `watch`,
// `upload`). The share-level claims (watch/claims.ts) coordinate workstations through the export
// folder, which may be read-only; this lock lives in the data folder, which is always ours.
//
// Layout, in `<data>/locks/`, per key (a hash of `study:<uid>` or `folder:<path>`):
//
//   <h>.<gen>        who holds generation <gen>: {pid, process start time, host, nonce}. Made whole
//                    in a temp file, then published with link(2), which fails if the name exists:
//                    of two processes racing for one generation exactly one gets it.
//   <h>.<gen>.free   the holder of <gen> released it (also created exclusively).
//
// The highest generation decides. It is free when its `.free` exists or its holder is gone (a dead
// pid, or a live pid that is another process now: the pid was reused). Linux tells a reused pid by
// the process's start time (/proc). Windows has no /proc and reuses pids soon: there a holder
// listens on a named pipe of its own, which the OS closes when the process ends however it ends,
// and the pipe's absence proves the holder gone. A process takes a free lock by
// creating the next generation; the winner then removes the older ones. The highest generation
// file is never removed (release only adds `.free`), so a taker that looked at an old state and
// creates a generation that is not the highest sees it on its re-check and backs off: two takers
// can never both believe they hold the lock.
import { createHash, randomBytes } from 'node:crypto';
import { linkSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { folderIdentity } from '../../folder-identity';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../../private-fs';
import { sleep } from '../../api/http';
import { UploadError } from '../ports/upload-errors';

const holderSchema = z.object({
  pid: z.number().int(),
  started: z.string().nullable(),
  host: z.string(),
  nonce: z.string(),
  key: z.string(),
  at: z.string(),
  /** Windows: the named pipe the holder listens on while it lives. */
  alive: z.string().optional(),
});
export type LockHolder = z.infer<typeof holderSchema>;

export type StudyLockOutcome =
  { kind: 'acquired'; lock: StudyLock } | { kind: 'held'; holder: LockHolder; key: string };

export type AcquireOptions = {
  /** Keep trying this long while another process holds a key (default 0: answer at once). */
  waitMs?: number;
  pollMs?: number;
  signal?: AbortSignal;
};

/** The lock key of a study (by Study Instance UID). */
export const studyKey = (studyUid: string): string => `study:${studyUid}`;
/**
 * The lock key of an export folder (journals are found by folder, so a folder is locked too): by
 * its identity, so two spellings of one folder's path take the same lock.
 */
export const folderKey = (root: string): string => `folder:${folderIdentity(root)}`;

export function locksDir(dataDir: string): string {
  return join(dataDir, 'locks');
}

const hashOf = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 24);
const codeOf = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | undefined)?.code;

/** When the process `pid` started (Linux: clock ticks since boot, from /proc), or null where unknown. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22; the command name (field 2) may hold spaces and parentheses, so count after its end.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

const ownStart = processStartTime(process.pid);

/** Whether the named pipe at `path` is gone (a path that exists answers anything but ENOENT). */
function pipeIsGone(path: string): boolean {
  try {
    statSync(path);
    return false;
  } catch (e) {
    return codeOf(e) === 'ENOENT';
  }
}

let alivePipe: Promise<string | undefined> | undefined;
/**
 * The named pipe this process listens on to prove it lives, where the start time cannot tell a
 * reused pid (Windows); undefined elsewhere, or when it could not be opened (the pid alone then
 * decides, as before).
 */
function livenessPipe(platform: NodeJS.Platform = process.platform): Promise<string | undefined> {
  if (platform !== 'win32' || ownStart !== null) return Promise.resolve(undefined);
  alivePipe ??= new Promise((resolve) => {
    const path = `\\\\.\\pipe\\scanbridge-alive-${randomBytes(12).toString('hex')}`;
    // A checker's look may open the pipe: the connection is closed at once.
    const server = createServer((socket) => socket.destroy());
    server.once('error', () => resolve(undefined));
    server.listen(path, () => {
      server.unref(); // never what keeps the process running
      resolve(path);
    });
  });
  return alivePipe;
}
/** Nonces of the locks this process holds: tells its own live locks from a previous process with the same pid. */
const heldHere = new Map<string, StudyLock>();

/** True when the holder is certainly gone: its process does not exist, or the pid now names another process. */
export function holderIsGone(h: LockHolder): boolean {
  if (h.host !== hostname()) return false; // Cannot check a process on another computer; assume it lives.
  if (h.pid === process.pid) {
    if (heldHere.has(h.nonce)) return false;
    if (h.started !== null && ownStart !== null) return h.started !== ownStart;
    return true; // This process does not hold it, so an earlier one with the same pid did.
  }
  try {
    process.kill(h.pid, 0);
  } catch (e) {
    if (codeOf(e) === 'ESRCH') return true;
    // EPERM: a process of another user has that pid now; not ours, but be safe: compare start times.
  }
  if (h.started !== null) {
    const now = processStartTime(h.pid);
    if (now !== null) return now !== h.started;
  }
  return h.alive !== undefined && pipeIsGone(h.alive);
}

type Entry = { gen: number; free: boolean };

function listGenerations(dir: string, h: string): Map<number, Entry> {
  const out = new Map<number, Entry>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  const prefix = `${h}.`;
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    const m = /^(\d{1,15})(\.free)?$/.exec(rest);
    if (!m) continue;
    const gen = Number(m[1]);
    const e = out.get(gen) ?? { gen, free: false };
    if (m[2]) e.free = true;
    out.set(gen, e);
  }
  return out;
}

function readHolder(path: string): LockHolder | null | 'missing' {
  try {
    const parsed = holderSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch (e) {
    return codeOf(e) === 'ENOENT' ? 'missing' : null;
  }
}

/** A lock this process holds on one or more keys. Release it when the upload ends. */
export class StudyLock {
  private released = false;

  constructor(
    private readonly dir: string,
    readonly nonce: string,
    private readonly held: readonly { key: string; h: string; gen: number }[],
  ) {
    heldHere.set(nonce, this);
  }

  get keys(): string[] {
    return this.held.map((k) => k.key);
  }

  /** Frees every key (idempotent; synchronous, so it can run in an exit handler). */
  release(): void {
    if (this.released) return;
    this.released = true;
    heldHere.delete(this.nonce);
    for (const k of this.held) {
      try {
        writeFileSync(join(this.dir, `${k.h}.${k.gen}.free`), '', { flag: 'wx', mode: PRIVATE_FILE_MODE });
      } catch {
        // Already marked, or superseded: nothing to free.
      }
    }
  }
}

type OneResult = { ok: true; gen: number } | { ok: false; holder: LockHolder };

function tryOne(dir: string, key: string, h: string, holder: LockHolder): OneResult {
  const temp = join(dir, `${h}.tmp-${holder.nonce}`);
  writeFileSync(temp, `${JSON.stringify(holder)}\n`, { mode: PRIVATE_FILE_MODE });
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      const gens = listGenerations(dir, h);
      const top = Math.max(0, ...gens.keys());
      if (top > 0 && !gens.get(top)?.free) {
        const current = readHolder(join(dir, `${h}.${top}`));
        if (current === 'missing') continue; // Superseded between listing and reading: look again.
        // An unreadable holder file can only be damage from outside; treat it as abandoned.
        if (current !== null && current.nonce !== holder.nonce && !holderIsGone(current))
          return { ok: false, holder: current };
      }
      const target = top + 1;
      try {
        linkSync(temp, join(dir, `${h}.${target}`));
      } catch (e) {
        if (codeOf(e) === 'EEXIST') continue; // Another process took that generation first.
        throw e;
      }
      // A taker that looked at an older state may still publish a generation, but never a higher
      // one than ours while we live; if one exists, ours came late: withdraw and look again.
      const after = listGenerations(dir, h);
      if (Math.max(...after.keys()) !== target) {
        unlinkQuiet(join(dir, `${h}.${target}`));
        continue;
      }
      for (const g of after.keys()) {
        if (g >= target) continue;
        unlinkQuiet(join(dir, `${h}.${g}`));
        unlinkQuiet(join(dir, `${h}.${g}.free`));
      }
      return { ok: true, gen: target };
    }
    throw new Error(`the upload lock ${key} keeps changing; try again`);
  } finally {
    unlinkQuiet(temp);
  }
}

function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/** One attempt at every key, in a fixed order; on any refusal the keys taken are given back. */
function tryAll(dataDir: string, keys: readonly string[], alive: string | undefined): StudyLockOutcome {
  const dir = locksDir(dataDir);
  ensurePrivateDir(dir);
  const nonce = randomBytes(8).toString('hex');
  const sorted = [...new Set(keys)].sort();
  const taken: { key: string; h: string; gen: number }[] = [];
  for (const key of sorted) {
    const h = hashOf(key);
    const holder: LockHolder = {
      pid: process.pid,
      started: ownStart,
      host: hostname(),
      nonce,
      key,
      at: new Date().toISOString(),
      ...(alive !== undefined ? { alive } : {}),
    };
    const r = tryOne(dir, key, h, holder);
    if (!r.ok) {
      new StudyLock(dir, nonce, taken).release();
      return { kind: 'held', holder: r.holder, key };
    }
    taken.push({ key, h, gen: r.gen });
  }
  return { kind: 'acquired', lock: new StudyLock(dir, nonce, taken) };
}

/**
 * Takes the upload lock on `keys` (a study's UIDs and its folder). Answers `held` with the holder's
 * pid when another live process (or another job of this one) has any of them, after waiting up to
 * `waitMs`. A lock whose holder died (even by kill -9 or a power cut) is taken over.
 */
export async function acquireStudyLock(
  dataDir: string,
  keys: readonly string[],
  options: AcquireOptions = {},
): Promise<StudyLockOutcome> {
  const deadline = Date.now() + (options.waitMs ?? 0);
  const alive = await livenessPipe();
  for (;;) {
    options.signal?.throwIfAborted();
    const outcome = tryAll(dataDir, keys, alive);
    if (outcome.kind === 'acquired' || Date.now() >= deadline) return outcome;
    await sleep(Math.min(options.pollMs ?? 250, Math.max(1, deadline - Date.now())), options.signal);
  }
}

/** The live holder of `key` (another process, or another job of this one), or null when it is free. */
export function lockHolder(dataDir: string, key: string): LockHolder | null {
  const dir = locksDir(dataDir);
  const h = hashOf(key);
  const gens = listGenerations(dir, h);
  const top = Math.max(0, ...gens.keys());
  if (top === 0 || gens.get(top)?.free) return null;
  const holder = readHolder(join(dir, `${h}.${top}`));
  if (holder === null || holder === 'missing' || holderIsGone(holder)) return null;
  return holder;
}

/** The message for a study another process is uploading. */
export function busyMessage(holder: LockHolder): string {
  return `another upload of this study is running (pid ${holder.pid})`;
}

/**
 * Runs `fn` holding the lock on `keys`; when another process holds it, throws a resumable
 * `busy` UploadError at once (the caller's retry picks the study up once the other run ended).
 */
export async function withStudyLock<T>(dataDir: string, keys: readonly string[], fn: () => Promise<T>): Promise<T> {
  const outcome = await acquireStudyLock(dataDir, keys);
  if (outcome.kind === 'held') throw new UploadError('busy', `The upload waits: ${busyMessage(outcome.holder)}.`, true);
  try {
    return await fn();
  } finally {
    outcome.lock.release();
  }
}

/** The keys of one study's upload: its folder and, when known, its Study Instance UIDs. */
export function uploadLockKeys(root: string, studyUids: readonly (string | null | undefined)[]): string[] {
  return [folderKey(root), ...studyUids.filter((u): u is string => typeof u === 'string' && u !== '').map(studyKey)];
}

/** Removes released locks and stray temp files older than `maxAgeMs` (they only matter while in use). */
export function pruneStudyLocks(dataDir: string, maxAgeMs: number, now = Date.now()): void {
  const dir = locksDir(dataDir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const old = (name: string): boolean => {
    try {
      return now - statSync(join(dir, name)).mtimeMs > maxAgeMs;
    } catch {
      return false;
    }
  };
  for (const name of names) {
    if (name.includes('.tmp-') && old(name)) unlinkQuiet(join(dir, name));
    const m = /^([0-9a-f]+)\.(\d+)\.free$/.exec(name);
    if (m && old(name)) {
      // The generation first, so that no one sees it without its `.free` and waits for a dead holder.
      unlinkQuiet(join(dir, `${m[1]}.${m[2]}`));
      unlinkQuiet(join(dir, name));
    }
  }
}

// A process that ends normally (even through process.exit) frees its locks at once; one that is
// killed leaves them to be taken over.
process.once('exit', () => {
  for (const lock of [...heldHere.values()]) lock.release();
});
