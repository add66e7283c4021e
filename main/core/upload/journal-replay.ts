// A job's state is a fold over its journal: replaying the records gives the step to resume from.
import type { PackState } from './deflated-zip';
import type { JournalRecord, PlannedRecord } from './journal';

export type JobPhase = 'planned' | 'creating' | 'created' | 'uploaded' | 'ready' | 'failed' | 'cancelled';

/** The exam a job is filling, with what it needs to put bytes there. */
export type ExamHandle = {
  id: string;
  createdAt: string;
  /** Earliest expiry of its presigned URLs (ms since epoch, the service's clock). */
  expiresAt: number;
  /** This computer's clock when the create answer arrived (null in older journals). */
  gotAt: number | null;
  urls: string[] | null;
  zipUrl: string | null;
};

export type JobState = {
  plan: PlannedRecord;
  phase: JobPhase;
  /** Set while a create may have reached the service without its answer being journaled. */
  intent: { marker: string; at: number } | null;
  exam: ExamHandle | null;
  /** 1 where the file is stored on the current exam. */
  done: Uint8Array;
  doneCount: number;
  /** Exams this job made and removed. */
  discarded: string[];
  readyExamId: string | null;
  failure: { code: string; message: string } | null;
  /** Compressed zip mode: how far the archive got, and the archive once complete (archive.ts). */
  pack: PackState | null;
  archive: { size: number; sha256: string } | null;
  /** Streamed compression: the size the exam is declared with, the archive padded up to it. */
  budget: number | null;
};

/** The state after `records`; the first record must be the plan. */
export function replayJournal(records: readonly JournalRecord[]): JobState {
  const first = records[0];
  if (!first || first.t !== 'planned') throw new Error('journal does not start with a plan');
  const state = initialState(first);
  for (const r of records.slice(1)) applyRecord(state, r);
  return state;
}

export function initialState(plan: PlannedRecord): JobState {
  return {
    plan,
    phase: 'planned',
    intent: null,
    exam: null,
    done: new Uint8Array(plan.files.length),
    doneCount: 0,
    discarded: [],
    readyExamId: null,
    failure: null,
    pack: null,
    archive: null,
    budget: null,
  };
}

/** Applies one record to the state (the engine applies what it appends, replay applies what it reads). */
export function applyRecord(s: JobState, r: JournalRecord): void {
  switch (r.t) {
    case 'planned':
    case 'summary':
      return;
    case 'packed': {
      const kept = r.n === 0 ? [] : (s.pack?.entries ?? []).slice(0, r.n - r.e.length);
      s.pack = { entries: [...kept, ...r.e], offset: r.offset };
      if (r.n === 0) s.archive = null;
      return;
    }
    case 'compressed':
      s.archive = { size: r.size, sha256: r.sha256 };
      return;
    case 'budget':
      s.budget = r.size;
      return;
    case 'creating':
      s.phase = 'creating';
      s.intent = { marker: r.marker, at: r.at };
      return;
    case 'created':
      s.phase = 'created';
      s.intent = null;
      s.exam = {
        id: r.exam_id,
        createdAt: r.created_at,
        expiresAt: r.expires_at,
        gotAt: r.got_at ?? null,
        urls: r.urls ?? null,
        zipUrl: r.zip_url ?? null,
      };
      resetDone(s);
      return;
    case 'done':
      for (const i of r.i) {
        if (i < s.done.length && s.done[i] === 0) {
          s.done[i] = 1;
          s.doneCount++;
        }
      }
      return;
    case 'undone':
      for (const i of r.i) {
        if (i < s.done.length && s.done[i] === 1) {
          s.done[i] = 0;
          s.doneCount--;
        }
      }
      if (s.phase === 'uploaded') s.phase = 'created';
      return;
    case 'uploaded':
      s.phase = 'uploaded';
      return;
    case 'discarded':
      s.discarded.push(r.exam_id);
      if (s.exam?.id === r.exam_id) {
        s.exam = null;
        s.phase = 'planned';
        resetDone(s);
      }
      return;
    case 'ready':
      s.phase = 'ready';
      s.readyExamId = r.exam_id;
      return;
    case 'failed':
      s.phase = 'failed';
      s.failure = { code: r.code, message: r.message };
      return;
    case 'cancelled':
      s.phase = 'cancelled';
      return;
  }
}

function resetDone(s: JobState): void {
  s.done.fill(0);
  s.doneCount = 0;
}
