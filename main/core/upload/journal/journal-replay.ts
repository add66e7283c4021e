// A job's state is a fold over its journal: replaying the records gives the step to resume from.
import type { PackState } from '../compression/deflated-zip';
import type { JournalDamage, JournalRecord, PlannedRecord } from './journal';

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
  /**
   * Set when the journal cannot be trusted whole (a damaged line, or it replaces damaged journals of
   * its folder): before creating or sending anything the job asks the service what it holds
   * (exam-steps.ts, `recover`). `notBefore`: the earliest the lost records can date from (this
   * computer's clock); `named`: exams the readable records name; `damage`: what was found.
   */
  recovery: { notBefore: number; named: string[]; damage: JournalDamage | null } | null;
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
    recovery: plan.recover_since !== undefined ? { notBefore: plan.recover_since, named: [], damage: null } : null,
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
    case 'recovered':
      s.recovery = null;
      return;
  }
}

/**
 * The state of a journal found damaged (readJournalChecked): the readable records replayed, and a
 * recovery due unless a `recovered` record comes after every damaged line.
 */
export function replayDamaged(
  records: readonly JournalRecord[],
  lines: readonly number[],
  damage: JournalDamage,
): JobState {
  const state = replayJournal(records);
  const lastRecovered = lines.reduce((at, line, i) => (records[i]?.t === 'recovered' ? line : at), 0);
  if (damage.lines.every((l) => l < lastRecovered)) return state;
  const named = new Set<string>();
  for (const r of records) if (r.t === 'created' || r.t === 'ready') named.add(r.exam_id);
  for (const id of state.discarded) named.delete(id);
  state.recovery = { notBefore: state.plan.at, named: [...named], damage };
  return state;
}

function resetDone(s: JobState): void {
  s.done.fill(0);
  s.doneCount = 0;
}
