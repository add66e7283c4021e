import { describe, expect, it } from 'vitest';
import { StudyTracker } from '@main/core/receive/study-tracker';

const A = { id: 'as_a', callingAet: 'CS3D', address: '10.0.0.7' };
const B = { id: 'as_b', callingAet: 'CS3D', address: '10.0.0.7' };
const timing = { quietMs: 1000, stoppedAfterMs: 60_000 };
const kinds = (t: StudyTracker, now: number): string[] => t.due(now).map((v) => `${v.kind}:${v.record.study_uid}`);

describe('received-study completeness', () => {
  it('is complete once its association was released and it has been quiet, and is handed on once', () => {
    const t = new StudyTracker(timing);
    t.stored('1.2.3', 'st_00000000000000000001', A, 0);
    expect(kinds(t, 5000)).toEqual([]); // the association is still open
    t.ended(A.id, 'released');
    expect(kinds(t, 500)).toEqual([]); // not quiet yet
    expect(kinds(t, 1000)).toEqual(['complete:1.2.3']);
    expect(kinds(t, 9000)).toEqual([]);
    // More images later: handed on again (the ledger then says "changed").
    t.stored('1.2.3', 'st_00000000000000000001', B, 10_000);
    t.ended(B.id, 'released');
    expect(kinds(t, 11_000)).toEqual(['complete:1.2.3']);
  });

  it('treats one study over two associations a moment apart as one, waiting for both', () => {
    const t = new StudyTracker(timing);
    t.stored('9', 'st_00000000000000000009', A, 0);
    t.stored('9', 'st_00000000000000000009', B, 100);
    t.ended(A.id, 'released');
    expect(kinds(t, 5000)).toEqual([]); // B still open
    t.ended(B.id, 'released');
    expect(kinds(t, 5000)).toEqual(['complete:9']);
  });

  it('keeps an aborted study waiting for a resend, offers it to staff after the long wait, and completes it after a released resend', () => {
    const t = new StudyTracker(timing);
    t.stored('7', 'st_00000000000000000007', A, 0);
    t.ended(A.id, 'aborted');
    expect(kinds(t, 30_000)).toEqual([]);
    expect(kinds(t, 60_000)).toEqual(['stopped:7']);
    expect(kinds(t, 120_000)).toEqual([]); // once
    t.stored('7', 'st_00000000000000000007', B, 130_000);
    t.ended(B.id, 'released');
    expect(kinds(t, 131_000)).toEqual(['complete:7']);
  });

  it('after a restart, a study whose association was open waits for a resend; one released and quiet goes on', () => {
    const t = new StudyTracker(timing);
    t.stored('open', 'st_0000000000000000000a', A, 0);
    t.stored('done', 'st_0000000000000000000b', B, 0);
    t.ended(B.id, 'released');
    const saved = JSON.parse(JSON.stringify(t.list())) as ReturnType<StudyTracker['list']>;
    const next = new StudyTracker(timing);
    next.load(saved);
    expect(next.get('open')?.needs_resend).toBe(true);
    expect(kinds(next, 2000)).toEqual(['complete:done']);
  });
});
