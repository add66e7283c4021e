// Where journals live (`<data>/jobs/`) and how a rerun on the same folder finds its job.
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { folderIdentity } from '../../folder-identity';
import { ensurePrivateDir } from '../../private-fs';
import { sleep } from '../../api/http';
import { folderKey, lockHolder } from '../journal/study-lock';
import { parseTakeHandle } from './target';
import { readFirstRecord, readJournal, type SummaryRecord } from '../journal/journal';
import { replayJournal } from '../journal/journal-replay';

/** The folder holding the upload journals. */
export function jobsDir(dataDir: string): string {
  return join(dataDir, 'jobs');
}

/** A folder's journals are named after its identity, so every spelling of its path finds them. */
function rootKey(root: string): string {
  return createHash('sha256').update(folderIdentity(root), 'utf8').digest('hex').slice(0, 16);
}

/** A fresh journal path for a new job on `root` (the folder is created if needed). */
export function newJournalPath(dataDir: string, root: string): { path: string; jobId: string } {
  const dir = jobsDir(dataDir);
  ensurePrivateDir(dir);
  const jobId = `${rootKey(root)}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  return { path: join(dir, `${jobId}.jsonl`), jobId };
}

export type FolderJobs = {
  /** The journal of the job on this folder that has not finished, if any. */
  unfinished: string | null;
  /** Finished jobs on this folder, newest first. */
  finished: SummaryRecord[];
};

/** Looks up the jobs of the folder `root`, however its path is spelt (folder-identity.ts). */
export function findFolderJobs(dataDir: string, root: string): FolderJobs {
  const key = rootKey(root);
  const identity = folderIdentity(root);
  const out: FolderJobs = { unfinished: null, finished: [] };
  let newestUnfinished = -1;
  for (const path of listJournals(dataDir, `${key}-`)) {
    const first = readFirstRecord(path);
    if (!first || (first.t !== 'planned' && first.t !== 'summary') || folderIdentity(first.root) !== identity) continue;
    // Extra takes of the folder are not uploads of it as an exam (target.ts).
    if (
      first.t === 'planned'
        ? first.target !== undefined
        : first.exam_id !== null && parseTakeHandle(first.exam_id) !== null
    )
      continue;
    if (first.t === 'summary') {
      out.finished.push(first);
      continue;
    }
    const mtime = statSync(path).mtimeMs;
    if (mtime > newestUnfinished) {
      newestUnfinished = mtime;
      out.unfinished = path;
    }
  }
  out.finished.sort((a, b) => b.at - a.at);
  return out;
}

/**
 * Journals of the folder `root` whose first line cannot be read (emptied, garbled: they no longer
 * say which job they were) are renamed `….jsonl.damaged` (kept for support, out of every lookup).
 * Returns the earliest time those jobs started (from their names: this computer's clock), or null
 * when there were none. The caller's job then looks on the service for what they made.
 */
export function setDamagedJournalsAside(dataDir: string, root: string): number | null {
  let since: number | null = null;
  for (const path of listJournals(dataDir, `${rootKey(root)}-`)) {
    if (readFirstRecord(path) !== null) continue;
    const started = startOfJob(path);
    try {
      renameSync(path, `${path}.damaged`);
    } catch {
      continue;
    }
    since = since === null ? started : Math.min(since, started);
  }
  return since;
}

/** When a job started, from its journal's name (`<folder key>-<ms in base 36>-<random>`), else a day before the file's last change. */
function startOfJob(path: string): number {
  const ms = parseInt(basename(path).split('-')[1] ?? '', 36);
  if (Number.isFinite(ms) && ms > 0) return ms;
  try {
    return statSync(path).mtimeMs - 86_400_000;
  } catch {
    return 0;
  }
}

/** Exam ids held by journals other than `exceptPath`: a crashed create must never adopt them. */
export function examIdsOfOtherJobs(dataDir: string, exceptPath: string): Set<string> {
  const ids = new Set<string>();
  for (const path of listJournals(dataDir, '')) {
    if (path === exceptPath) continue;
    try {
      const records = readJournal(path);
      for (const r of records) {
        if (r.t === 'created' || r.t === 'discarded' || r.t === 'ready') ids.add(r.exam_id);
        else if (r.t === 'summary' && r.exam_id) ids.add(r.exam_id);
      }
    } catch {
      // A journal being written or removed meanwhile: nothing to learn from it.
    }
  }
  return ids;
}

/**
 * Whether another job, held right now by a live process, has sent a create whose answer it has
 * not journaled yet: an exam that looks like an orphan may then be that job's, and is not touched.
 */
export function anotherLiveJobIsCreating(
  dataDir: string,
  exceptPath: string,
  isHeld: (root: string) => boolean,
): boolean {
  for (const path of listJournals(dataDir, '')) {
    if (path === exceptPath) continue;
    try {
      const records = readJournal(path);
      const first = records[0];
      if (first?.t !== 'planned') continue;
      if (replayJournal(records).phase === 'creating' && isHeld(first.root)) return true;
    } catch {
      // Being written or removed meanwhile.
    }
  }
  return false;
}

/** Waits (up to two minutes) while another job held by a live process is between its create and its answer. */
export async function waitWhileOthersCreate(
  dataDir: string,
  ownJournal: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const held = (root: string): boolean => lockHolder(dataDir, folderKey(root)) !== null;
  for (let i = 0; i < 240 && anotherLiveJobIsCreating(dataDir, ownJournal, held); i++) await sleep(500, signal);
}

/** Jobs not finished, on any folder (for an app that resumes everything at start-up). */
export function listUnfinishedJobs(dataDir: string): string[] {
  return listJournals(dataDir, '').filter((path) => journalIsUnfinished(path));
}

/** The journal of a job that has not ended (false for a summary, an ended job, or a journal that cannot be read). */
export function journalIsUnfinished(path: string): boolean {
  const first = readFirstRecord(path);
  if (first?.t !== 'planned') return false;
  try {
    const phase = replayJournal(readJournal(path)).phase;
    return phase !== 'ready' && phase !== 'failed' && phase !== 'cancelled';
  } catch {
    return false;
  }
}

/** The journal path of a job id (whether or not it exists). */
export function journalPathOf(dataDir: string, jobId: string): string {
  return join(jobsDir(dataDir), `${jobId}.jsonl`);
}

/** Removes summaries of finished jobs older than `maxAgeMs`. */
export function pruneFinishedJobs(dataDir: string, maxAgeMs: number, now = Date.now()): void {
  for (const path of listJournals(dataDir, '')) {
    const first = readFirstRecord(path);
    if (first?.t === 'summary' && now - first.at > maxAgeMs) {
      try {
        unlinkSync(path);
      } catch {
        // Already gone.
      }
    }
  }
}

function listJournals(dataDir: string, prefix: string): string[] {
  const dir = jobsDir(dataDir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => n.startsWith(prefix) && n.endsWith('.jsonl')).map((n) => join(dir, n));
}
