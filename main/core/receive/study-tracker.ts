// When a received study is complete, and when its sender has stopped. Pure bookkeeping over one
// record per Study Instance UID, driven by the listener's facts and a clock:
//   - complete: no association that carried it is still open, the last one to end was released
//     (not aborted), and no object of it arrived for the quiet period;
//   - objects of an aborted association are kept, but the study waits for a released resend;
//   - stopped: it has waited for that resend longer than the long wait (offered to staff once).
// The records are plain data (saved to disk by the service): a restart resumes where it was, and
// associations open at the stop count as cut off.
import { z } from 'zod';

export const studyRecordSchema = z.object({
  study_uid: z.string().min(1).max(64),
  /** The study's folder name under the received-studies folder. */
  dir: z.string().regex(/^st_[0-9a-f]{20}$/),
  calling_aet: z.string().max(16),
  address: z.string().max(64),
  /** Objects stored (a resent object counts again; only the files on disk are uploaded). */
  stored: z.number().int().nonnegative(),
  last_at: z.number(),
  open: z.array(z.string()),
  needs_resend: z.boolean(),
  /** `stored` when the study was last handed on as complete (null: never). */
  handed_at: z.number().int().nullable(),
  stopped_reported: z.boolean(),
});
export type StudyRecord = z.infer<typeof studyRecordSchema>;

export type TrackerTiming = { quietMs: number; stoppedAfterMs: number };

export type Verdict = { kind: 'complete' | 'stopped'; record: StudyRecord };

export class StudyTracker {
  private readonly records = new Map<string, StudyRecord>();

  constructor(private timing: TrackerTiming) {}

  setTiming(timing: TrackerTiming): void {
    this.timing = timing;
  }

  /** Loads saved records: associations open at the stop were cut off, so their studies wait for a resend. */
  load(records: readonly StudyRecord[]): void {
    for (const r of records) {
      const cut = r.open.length > 0;
      this.records.set(r.study_uid, { ...r, open: [], needs_resend: r.needs_resend || cut });
    }
  }

  list(): StudyRecord[] {
    return [...this.records.values()];
  }

  get(studyUid: string): StudyRecord | undefined {
    return this.records.get(studyUid);
  }

  /** An object of `studyUid` is on disk, carried by association `assoc`. */
  stored(studyUid: string, dir: string, assoc: { id: string; callingAet: string; address: string }, now: number): void {
    const r = this.records.get(studyUid) ?? {
      study_uid: studyUid,
      dir,
      calling_aet: assoc.callingAet,
      address: assoc.address,
      stored: 0,
      last_at: now,
      open: [],
      needs_resend: false,
      handed_at: null,
      stopped_reported: false,
    };
    r.stored += 1;
    r.last_at = now;
    r.calling_aet = assoc.callingAet;
    r.address = assoc.address;
    r.stopped_reported = false;
    if (!r.open.includes(assoc.id)) r.open.push(assoc.id);
    this.records.set(studyUid, r);
  }

  /** An association ended: its studies lose it; released clears a wait for a resend, aborted starts one. */
  ended(assocId: string, how: 'released' | 'aborted'): void {
    for (const r of this.records.values()) {
      if (!r.open.includes(assocId)) continue;
      r.open = r.open.filter((id) => id !== assocId);
      r.needs_resend = how === 'aborted';
    }
  }

  /** What became due at `now`; each verdict is given once (until more objects arrive). */
  due(now: number): Verdict[] {
    const out: Verdict[] = [];
    for (const r of this.records.values()) {
      if (r.open.length > 0) continue;
      const quiet = now - r.last_at;
      if (!r.needs_resend && r.handed_at !== r.stored && quiet >= this.timing.quietMs) {
        r.handed_at = r.stored;
        out.push({ kind: 'complete', record: { ...r } });
      } else if (r.needs_resend && !r.stopped_reported && quiet >= this.timing.stoppedAfterMs) {
        r.stopped_reported = true;
        out.push({ kind: 'stopped', record: { ...r } });
      }
    }
    return out;
  }
}
