// Uploading a study once when several agents (processes, or workstations on one SMB share) watch
// the same folder. Each agent's ledger is local, so the shared state lives in the export folder:
//
//   .scanbridge-claim-<h>-<gen>  "I am uploading this study": created with exclusive create
//                                 (`wx`), so of two agents only one creates a given generation.
//                                 The owner touches its mtime every heartbeat.
//   .scanbridge-done-<h>         written (temp file + rename) after a successful upload, with the
//                                 exam id and file-set fingerprint: other agents skip the study.
//
// <h> is a hash of the Study Instance UID. A claim whose mtime is older than `staleAfterMs`
// (its owner died or lost the share), or whose owner is a dead process on this host, is taken
// over by creating the next generation, again with `wx`, so only one agent takes it over; the
// previous owner, if it was only slow, sees a higher generation at its next heartbeat and stops.
// The winner looks for a done marker again after creating its claim: the previous owner writes
// its marker before deleting its claim, so a study finished meanwhile is never uploaded twice.
//
// Staleness compares the claim's mtime with the local clock: workstations' clocks must agree to
// within a fraction of `staleAfterMs` (minutes), which NTP or a Windows domain gives.
// A folder the agent cannot write to (read-only media or share) cannot hold claims: the outcome is
// `unclaimable`, and coordination between agents is then impossible.
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { open, readdir, readFile, stat, unlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { LedgerKey } from './ledger';
import { MARKER_PREFIX } from './snapshot';
import { writeFileAtomic } from '../atomic-file';

export type ClaimOptions = {
  /** This agent's identity (unique per running watcher). */
  agentId: string;
  /** A claim not touched for this long is abandoned (default 3 min). */
  staleAfterMs?: number;
  /** How often the owner touches its claim (default 20 s). */
  heartbeatMs?: number;
};

const claimSchema = z.object({
  agent: z.string(),
  host: z.string(),
  pid: z.number().int(),
  study_uid: z.string(),
  fingerprint: z.string(),
  claimed_at: z.string(),
});
const doneSchema = z.object({
  agent: z.string(),
  study_uid: z.string(),
  fingerprint: z.string(),
  exam_id: z.string().min(1),
  files: z.number(),
  bytes: z.number(),
  at: z.string(),
});
export type DoneMarker = z.infer<typeof doneSchema>;
type ClaimContent = z.infer<typeof claimSchema>;

export type ClaimOutcome =
  | { kind: 'won'; claim: Claim }
  /** Another live agent is uploading it. */
  | { kind: 'held'; by: string }
  /** Uploaded already (by any agent); `same` is false when the file set differs from the one uploaded. */
  | { kind: 'done'; marker: DoneMarker; same: boolean }
  /** The folder cannot hold a claim (read-only); the caller decides alone. */
  | { kind: 'unclaimable'; reason: string };

/** The marker-file hash of a Study Instance UID. */
export function studyHash(studyUid: string): string {
  return createHash('sha256').update(studyUid, 'utf8').digest('hex').slice(0, 16);
}

/** A unique id for one running agent: host, process and a random part. */
export function newAgentId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

const claimPrefix = (h: string): string => `${MARKER_PREFIX}claim-${h}-`;
const doneName = (h: string): string => `${MARKER_PREFIX}done-${h}`;

const READ_ONLY_CODES = new Set(['EACCES', 'EPERM', 'EROFS']);
const codeOf = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | undefined)?.code;

async function readJson<T>(path: string, schema: z.ZodType<T>): Promise<T | null> {
  try {
    const parsed = schema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The done marker of a study in an export folder, or null. */
export function readDoneMarker(exportDir: string, studyUid: string): Promise<DoneMarker | null> {
  return readJson(join(exportDir, doneName(studyHash(studyUid))), doneSchema);
}

async function claimGenerations(exportDir: string, h: string): Promise<number[]> {
  const prefix = claimPrefix(h);
  const gens: number[] = [];
  for (const name of await readdir(exportDir)) {
    if (!name.startsWith(prefix)) continue;
    const gen = Number(name.slice(prefix.length));
    if (Number.isSafeInteger(gen) && gen > 0) gens.push(gen);
  }
  return gens.sort((a, b) => a - b);
}

function processIsGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return codeOf(e) === 'ESRCH';
  }
}

/** A claim this agent holds: keep it alive while uploading, then complete or release it. */
export class Claim {
  private timer: NodeJS.Timeout | undefined;
  private readonly lostController = new AbortController();
  private finished = false;

  constructor(
    readonly exportDir: string,
    readonly key: LedgerKey,
    readonly path: string,
    private readonly agentId: string,
    heartbeatMs: number,
  ) {
    this.timer = setInterval(() => void this.heartbeat(), heartbeatMs);
    this.timer.unref();
  }

  /** Aborts when another agent took the claim over (this agent was thought dead): stop uploading. */
  get lost(): AbortSignal {
    return this.lostController.signal;
  }

  private async heartbeat(): Promise<void> {
    if (this.finished) return;
    const h = studyHash(this.key.study_uid);
    try {
      const now = new Date();
      await utimes(this.path, now, now);
      const gens = await claimGenerations(this.exportDir, h);
      const mine = Number(this.path.slice(this.path.lastIndexOf('-') + 1));
      if (gens.some((g) => g > mine)) throw new Error('taken over');
    } catch (e) {
      // The share may be briefly away: only a missing claim or a newer generation means it is lost.
      if (codeOf(e) === 'ENOENT' || (e instanceof Error && e.message === 'taken over')) {
        this.stop();
        this.lostController.abort(new Error('another agent took over this upload'));
      }
    }
  }

  private stop(): void {
    this.finished = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Writes the done marker (exam id, file set), then removes the claim. */
  async complete(examId: string, files: number, bytes: number): Promise<void> {
    this.stop();
    try {
      await writeDoneMarker(this.exportDir, this.key, { agentId: this.agentId, examId, files, bytes });
    } finally {
      await unlink(this.path).catch(() => undefined);
    }
  }

  /** Gives the claim up (upload failed or interrupted): another agent may take it at once. */
  async release(): Promise<void> {
    this.stop();
    await unlink(this.path).catch(() => undefined);
  }
}

/**
 * Writes the done marker of a study (temp file + rename): every agent watching the folder skips the
 * study from then on. Throws a message naming the exam when it cannot be written.
 */
export async function writeDoneMarker(
  exportDir: string,
  key: LedgerKey,
  done: { agentId: string; examId: string; files: number; bytes: number },
): Promise<void> {
  const marker: DoneMarker = {
    agent: done.agentId,
    study_uid: key.study_uid,
    fingerprint: key.fingerprint,
    exam_id: done.examId,
    files: done.files,
    bytes: done.bytes,
    at: new Date().toISOString(),
  };
  const target = join(exportDir, doneName(studyHash(key.study_uid)));
  try {
    // Readable by the other workstations' accounts on the share: it holds no patient data.
    await writeFileAtomic(target, `${JSON.stringify(marker)}\n`, { mode: 0o644 });
  } catch (e) {
    // The exam exists either way; without a marker another agent could upload again, so say so.
    throw new Error(
      `uploaded as ${done.examId}, but the done marker could not be written: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

/**
 * Tries to become the one agent that uploads this study from `exportDir`: answers `won` with a
 * live claim, `held` when another agent is at it, `done` when a done marker exists (unless `force`,
 * used when staff chose to upload a changed study again), or `unclaimable` for a read-only folder.
 */
export async function tryClaim(
  exportDir: string,
  key: LedgerKey,
  options: ClaimOptions & { force?: boolean },
): Promise<ClaimOutcome> {
  const staleAfterMs = options.staleAfterMs ?? 3 * 60_000;
  const heartbeatMs = options.heartbeatMs ?? 20_000;
  const h = studyHash(key.study_uid);
  const doneCheck = async (): Promise<ClaimOutcome | null> => {
    if (options.force) return null;
    const marker = await readDoneMarker(exportDir, key.study_uid);
    return marker ? { kind: 'done', marker, same: marker.fingerprint === key.fingerprint } : null;
  };

  const before = await doneCheck();
  if (before) return before;

  // A folder that cannot be listed cannot be uploaded either: the error goes to the caller.
  const gens = await claimGenerations(exportDir, h);
  const current = gens[gens.length - 1];
  let nextGen = 1;
  if (current !== undefined) {
    const path = join(exportDir, `${claimPrefix(h)}${current}`);
    const holder = await readJson<ClaimContent>(path, claimSchema);
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(path)).mtimeMs;
    } catch {
      mtimeMs = 0; // Released between listing and stat.
    }
    const deadHere = holder !== null && holder.host === hostname() && processIsGone(holder.pid);
    const stale = Date.now() - mtimeMs > staleAfterMs || deadHere;
    if (!stale) return { kind: 'held', by: holder?.agent ?? 'another agent' };
    nextGen = current + 1;
  }

  const path = join(exportDir, `${claimPrefix(h)}${nextGen}`);
  const content: ClaimContent = {
    agent: options.agentId,
    host: hostname(),
    pid: process.pid,
    study_uid: key.study_uid,
    fingerprint: key.fingerprint,
    claimed_at: new Date().toISOString(),
  };
  try {
    const handle = await open(path, 'wx');
    try {
      await handle.writeFile(`${JSON.stringify(content)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (e) {
    const code = codeOf(e);
    if (code === 'EEXIST') {
      const holder = await readJson<ClaimContent>(path, claimSchema);
      return { kind: 'held', by: holder?.agent ?? 'another agent' };
    }
    if (code !== undefined && READ_ONLY_CODES.has(code))
      return { kind: 'unclaimable', reason: `the export folder is not writable (${code})` };
    throw e;
  }

  const after = await doneCheck();
  if (after) {
    await unlink(path).catch(() => undefined);
    return after;
  }
  for (const g of gens) await unlink(join(exportDir, `${claimPrefix(h)}${g}`)).catch(() => undefined);
  return { kind: 'won', claim: new Claim(exportDir, key, path, options.agentId, heartbeatMs) };
}
