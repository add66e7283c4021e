import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  anotherLiveJobIsCreating,
  examIdsOfOtherJobs,
  findFolderJobs,
  listUnfinishedJobs,
  newJournalPath,
  pruneFinishedJobs,
} from '@main/core/upload/state/job-store';
import { acquireStudyLock, folderKey, lockHolder } from '@main/core/upload/journal/study-lock';
import { Journal } from '@main/core/upload/journal/journal';
import { plannedRecord } from '@support/data/journal-plans';

describe('upload job store', () => {
  let data: string;
  beforeEach(() => {
    data = mkdtempSync(join(tmpdir(), 'sb-jobs-'));
  });
  afterEach(() => rmSync(data, { recursive: true, force: true }));

  function startJob(root: string): Journal {
    const { path, jobId } = newJournalPath(data, root);
    return Journal.create(path, plannedRecord({ root, jobId, sizes: [1] }));
  }

  it('finds the unfinished job of a folder and the finished ones, and nothing for other folders', () => {
    const open = startJob('/exports/a');
    open.append({ t: 'created', exam_id: 'exm_open', created_at: 'x', expires_at: 1, urls: ['u'] });
    open.close();
    const done = startJob('/exports/a');
    done.compact({
      t: 'summary',
      job_id: 'j',
      root: '/exports/a',
      fingerprint: 'fp',
      outcome: 'ready',
      exam_id: 'exm_done',
      files: 1,
      bytes: 1,
      mode: 'files',
      at: 5,
    });
    startJob('/exports/b').close();

    const a = findFolderJobs(data, '/exports/a');
    expect(a.unfinished).toBe(open.path);
    expect(a.finished.map((f) => f.exam_id)).toEqual(['exm_done']);
    expect(findFolderJobs(data, '/exports/c')).toEqual({ unfinished: null, finished: [] });
    expect(listUnfinishedJobs(data).sort()).toHaveLength(2);
  });

  it('knows the exams other jobs hold, so an orphan search never takes them', () => {
    const mine = startJob('/exports/a');
    const other = startJob('/exports/b');
    other.append({ t: 'created', exam_id: 'exm_other', created_at: 'x', expires_at: 1, urls: ['u'] });
    other.close();
    mine.close();
    expect([...examIdsOfOtherJobs(data, mine.path)]).toEqual(['exm_other']);
    expect([...examIdsOfOtherJobs(data, other.path)]).toEqual([]);
  });

  it('prunes old summaries of finished jobs but never an unfinished job', () => {
    const old = startJob('/exports/a');
    old.compact({
      t: 'summary',
      job_id: 'j',
      root: '/exports/a',
      fingerprint: 'fp',
      outcome: 'ready',
      exam_id: 'e',
      files: 1,
      bytes: 1,
      mode: 'files',
      at: 1000,
    });
    const unfinished = startJob('/exports/b');
    unfinished.close();
    utimesSync(unfinished.path, new Date(0), new Date(0));
    pruneFinishedJobs(data, 60_000, 1000 + 120_000);
    expect(findFolderJobs(data, '/exports/a').finished).toEqual([]);
    expect(findFolderJobs(data, '/exports/b').unfinished).toBe(unfinished.path);
  });

  it('knows when another job held by a live process is between its create and the answer', async () => {
    const mine = startJob('/exports/mine');
    const other = startJob('/exports/other');
    other.append({ t: 'creating', marker: 'm', at: 2 });
    other.close();
    const held = (root: string): boolean => lockHolder(data, folderKey(root)) !== null;
    // Nobody holds the other folder: a crashed job's leftover, fair game for the orphan search.
    expect(anotherLiveJobIsCreating(data, mine.path, held)).toBe(false);
    const lock = await acquireStudyLock(data, [folderKey('/exports/other')]);
    expect(anotherLiveJobIsCreating(data, mine.path, held)).toBe(true);
    if (lock.kind === 'acquired') lock.lock.release();
    expect(anotherLiveJobIsCreating(data, mine.path, held)).toBe(false);
    mine.close();
  });

  it('a folder named through a symbolic link finds the same jobs and takes the same lock', async () => {
    const exports = mkdtempSync(join(tmpdir(), 'sb-jobs-exports-'));
    try {
      const real = join(exports, 'Exportaciones escáner', 'Ana');
      mkdirSync(real, { recursive: true });
      const link = join(exports, 'acceso directo');
      symlinkSync(join(exports, 'Exportaciones escáner'), link);
      const viaLink = join(link, 'Ana');
      const open = startJob(real);
      open.append({ t: 'created', exam_id: 'exm_open', created_at: 'x', expires_at: 1, urls: ['u'] });
      open.close();
      expect(findFolderJobs(data, viaLink).unfinished).toBe(open.path);
      expect(findFolderJobs(data, `${viaLink}/./`).unfinished).toBe(open.path);
      // A job started through the link is found by the real path too.
      const other = join(exports, 'Exportaciones escáner', 'Luis');
      mkdirSync(other);
      const viaLinkJob = startJob(join(link, 'Luis'));
      viaLinkJob.close();
      expect(findFolderJobs(data, other).unfinished).toBe(viaLinkJob.path);

      expect(folderKey(viaLink)).toBe(folderKey(real));
      const lock = await acquireStudyLock(data, [folderKey(real)]);
      expect(lockHolder(data, folderKey(viaLink))).not.toBeNull();
      if (lock.kind === 'acquired') lock.lock.release();
      expect(lockHolder(data, folderKey(viaLink))).toBeNull();
    } finally {
      rmSync(exports, { recursive: true, force: true });
    }
  });
});
