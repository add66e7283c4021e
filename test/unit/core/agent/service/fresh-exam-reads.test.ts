// One exam read per visit: reads of an exam within a minute share one GET (one in flight too), a
// write on the exam's path drops it, a failed read is not kept, and GET /me is shared while in flight.
import { describe, expect, it } from 'vitest';
import { FreshExamReads } from '@main/core/agent/service/fresh-exam-reads';

type Exam = Awaited<ReturnType<FreshExamReads['get']>>;
type Me = Awaited<ReturnType<FreshExamReads['me']>>;

function reads(now: () => number) {
  const calls: string[] = [];
  let fail = false;
  const r = new FreshExamReads(
    (id) => {
      calls.push(id);
      return fail ? Promise.reject(new Error('down')) : Promise.resolve({ id } as unknown as Exam);
    },
    () => {
      calls.push('me');
      return Promise.resolve({ user_id: 'u' } as unknown as Me);
    },
    60_000,
    now,
  );
  return { r, calls, failNext: (v: boolean) => (fail = v) };
}

describe('fresh exam reads', () => {
  it('share a read for a minute, and read again after a write to that exam or once stale', async () => {
    let t = 0;
    const { r, calls } = reads(() => t);
    await Promise.all([r.get('exm_1'), r.get('exm_1')]);
    await r.get('exm_1');
    await r.get('exm_2');
    expect(calls).toEqual(['exm_1', 'exm_2']);
    r.observe({ type: 'attempt', method: 'GET', path: 'exams/exm_1/thumbnail', attempt: 1, at: new Date() });
    await r.get('exm_1');
    expect(calls).toEqual(['exm_1', 'exm_2']);
    r.observe({ type: 'attempt', method: 'PATCH', path: 'exams/exm_1', attempt: 1, at: new Date() });
    await r.get('exm_1');
    r.observe({ type: 'attempt', method: 'POST', path: 'exams/exm_2/consent', attempt: 1, at: new Date() });
    await r.get('exm_2');
    expect(calls).toEqual(['exm_1', 'exm_2', 'exm_1', 'exm_2']);
    t = 60_000;
    await r.get('exm_1');
    expect(calls).toHaveLength(5);
    // A read with a signal of its own (the upload engine's) always goes out.
    await r.get('exm_1', { signal: new AbortController().signal });
    expect(calls).toHaveLength(6);
  });

  it('keeps no failed read, and shares GET /me', async () => {
    const { r, calls, failNext } = reads(() => 0);
    failNext(true);
    await expect(r.get('exm_1')).rejects.toThrow('down');
    failNext(false);
    await r.get('exm_1');
    expect(calls).toEqual(['exm_1', 'exm_1']);
    // Two reads of /me at once share one; once answered, the next (a Refresh) asks again.
    await Promise.all([r.me(), r.me()]);
    expect(calls.filter((c) => c === 'me')).toHaveLength(1);
    await r.me();
    expect(calls.filter((c) => c === 'me')).toHaveLength(2);
  });
});
