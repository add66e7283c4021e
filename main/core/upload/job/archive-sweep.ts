// Compressed archives no job will send again. A job deletes its archive when it ends (engine.ts),
// but a process killed between the job's last journal record and that deletion, or a journal
// removed by hand, leaves one behind in `<data>/archives/`: the patient's images, kept for nothing.
// At start-up (the app's upload queue, `scanbridge upload`) every archive whose job has ended or
// whose journal is gone is deleted. An unfinished job keeps its archive (a rerun continues it),
// whichever process holds it: a job's journal is written before its archive, so an archive being
// made right now always has an unfinished journal beside it.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ARCHIVES_DIR } from './archive';
import { journalIsUnfinished, journalPathOf } from '../state/job-store';

/** Deletes the archives of jobs that ended or no longer exist; returns their job ids. */
export function sweepOrphanArchives(dataDir: string): string[] {
  const dir = join(dataDir, ARCHIVES_DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.endsWith('.zip')) continue;
    const jobId = name.slice(0, -'.zip'.length);
    const journal = journalPathOf(dataDir, jobId);
    if (existsSync(journal) && journalIsUnfinished(journal)) continue;
    rmSync(join(dir, name), { force: true });
    removed.push(jobId);
  }
  return removed;
}
