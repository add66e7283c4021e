// The share-on-ready intents the journals hold: for each exam that became ready with a `share` in
// its plan, whom to e-mail it to. The journal is where the intent is kept (written with the plan,
// carried into the summary), so an agent that died between "ready" and "shared" finds it again on
// its next start; handout/share-on-ready.ts keeps what was sent, so nothing goes out twice.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readFirstRecord, readJournal, type ShareIntent } from '../journal/journal';
import { jobsDir } from './job-store';
import { replayJournal } from '../journal/journal-replay';

export type ReadyShareIntent = ShareIntent & { exam_id: string; ready_at: number };

/** The intent of one journal, when its job ended with a ready exam (null otherwise). */
export function readyShareIntentOf(path: string): ReadyShareIntent | null {
  // The first line says most: a summary, or a plan without an intent (no need to read the rest).
  const first = readFirstRecord(path);
  if (first?.t === 'summary') {
    if (first.outcome !== 'ready' || !first.exam_id || !first.share) return null;
    return { ...first.share, exam_id: first.exam_id, ready_at: first.at };
  }
  if (first?.t !== 'planned' || !first.share || first.target) return null;
  const records = readJournal(path);
  const state = replayJournal(records);
  if (state.phase !== 'ready' || !state.readyExamId) return null;
  const ready = records.find((r) => r.t === 'ready');
  return { ...first.share, exam_id: state.readyExamId, ready_at: ready?.t === 'ready' ? ready.at : first.at };
}

/** Intents of exams that became ready at or after `sinceMs` (older ones are left alone). */
export function readyShareIntents(dataDir: string, sinceMs: number): ReadyShareIntent[] {
  let names: string[];
  try {
    names = readdirSync(jobsDir(dataDir)).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return [];
  }
  const out: ReadyShareIntent[] = [];
  for (const name of names) {
    try {
      const intent = readyShareIntentOf(join(jobsDir(dataDir), name));
      if (intent && intent.ready_at >= sinceMs) out.push(intent);
    } catch {
      // A journal being replaced or removed right now: the next look finds it.
    }
  }
  return out.sort((a, b) => a.ready_at - b.ready_at);
}
