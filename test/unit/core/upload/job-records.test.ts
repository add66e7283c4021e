// What a job reads off its journal: the progress already accounted for, and whether the exam's
// upload links are still good enough to start a transfer.
import { describe, expect, it } from 'vitest';
import { linksExpired, progressBaseline } from '@main/core/upload/state/job-records';
import { applyRecord, initialState } from '@main/core/upload/journal/journal-replay';
import type { JournalRecord } from '@main/core/upload/journal/journal';
import { plannedRecord } from '@support/data/journal-plans';

const created = (expiresAt: number): JournalRecord => ({
  t: 'created',
  exam_id: 'exm_1',
  created_at: '2026-01-01T00:00:00Z',
  expires_at: expiresAt,
  urls: ['u0', 'u1', 'u2'],
});

describe('progressBaseline', () => {
  it('counts the bytes of the files the journal marks as stored, and everything once ready', () => {
    const s = initialState(plannedRecord({ sizes: [10, 20, 30] }));
    expect(progressBaseline(s)).toEqual({ bytesTotal: 60, filesTotal: 3, bytesDone: 0, filesDone: 0 });
    applyRecord(s, created(Date.now() + 3_600_000));
    applyRecord(s, { t: 'done', i: [2] });
    expect(progressBaseline(s)).toEqual({ bytesTotal: 60, filesTotal: 3, bytesDone: 30, filesDone: 1 });
    applyRecord(s, { t: 'ready', exam_id: 'exm_1', at: 2 });
    expect(progressBaseline(s)).toEqual({ bytesTotal: 60, filesTotal: 3, bytesDone: 60, filesDone: 3 });
  });

  it('counts a ZIP as sent once it is uploaded, and its files once the exam is ready', () => {
    const s = initialState(plannedRecord({ mode: 'zip', sizes: [10, 20, 30] }));
    expect(progressBaseline(s)).toMatchObject({ bytesTotal: 500, bytesDone: 0, filesDone: 0 });
    applyRecord(s, { t: 'uploaded' });
    expect(progressBaseline(s)).toMatchObject({ bytesTotal: 500, bytesDone: 500, filesDone: 0 });
    applyRecord(s, { t: 'ready', exam_id: 'exm_1', at: 2 });
    expect(progressBaseline(s)).toMatchObject({ bytesDone: 500, filesDone: 3 });
  });
});

describe('linksExpired', () => {
  const created0 = Date.parse('2026-01-01T00:00:00Z');
  const exam = (lifeMs: number) => ({
    id: 'exm_1',
    createdAt: '2026-01-01T00:00:00Z',
    expiresAt: created0 + lifeMs,
    gotAt: null,
    urls: null,
    zipUrl: null,
  });

  it('is false without an exam', () => {
    expect(linksExpired(null)).toBe(false);
  });

  it('keeps a margin of 60 s before an hour-long link expires', () => {
    const e = exam(3_600_000);
    expect(linksExpired(e, created0 + 3_600_000 - 61_000)).toBe(false);
    expect(linksExpired(e, created0 + 3_600_000 - 60_000)).toBe(true);
  });

  it('keeps a quarter of a short lifetime as margin', () => {
    const e = exam(40_000);
    expect(linksExpired(e, created0 + 29_000)).toBe(false);
    expect(linksExpired(e, created0 + 30_000)).toBe(true);
  });

  it("counts the service's lifetime from when the answer arrived, whatever the local clock says", () => {
    const twoDays = 2 * 86_400_000;
    // The local clock two days ahead: the answer arrived at local created0 + 2 days.
    const ahead = { ...exam(3_600_000), gotAt: created0 + twoDays };
    expect(linksExpired(ahead, created0 + twoDays + 60_000)).toBe(false);
    expect(linksExpired(ahead, created0 + twoDays + 3_600_000 - 60_000)).toBe(true);
    // Three hours behind: the links are not taken for good after their hour is over.
    const behind = { ...exam(3_600_000), gotAt: created0 - 3 * 3_600_000 };
    expect(linksExpired(behind, created0 - 3 * 3_600_000 + 3_599_000)).toBe(true);
  });
});
