import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal, readFirstRecord, readJournal, readJournalChecked } from '@main/core/upload/journal/journal';
import { replayJournal } from '@main/core/upload/journal/journal-replay';
import { plannedRecord } from '@support/data/journal-plans';

describe('upload journal', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-journal-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('replays the steps it recorded into the state to resume from', () => {
    const path = join(dir, 'j.jsonl');
    const j = Journal.create(path, plannedRecord());
    j.append({ t: 'creating', marker: 'm1', at: 5 });
    j.append({
      t: 'created',
      exam_id: 'exm_1',
      created_at: '2026-01-01T00:00:00Z',
      expires_at: 99,
      urls: ['u0', 'u1', 'u2'],
    });
    j.markDone(2);
    j.markDone(0);
    j.close();
    const s = replayJournal(readJournal(path));
    expect(s.phase).toBe('created');
    expect(s.exam?.id).toBe('exm_1');
    expect([...s.done]).toEqual([1, 0, 1]);
    expect(s.doneCount).toBe(2);
  });

  it('batches file completions and writes them at the next step boundary', () => {
    const path = join(dir, 'j.jsonl');
    const j = Journal.create(path, plannedRecord(), { doneFlushMs: 60_000 });
    j.append({ t: 'created', exam_id: 'exm_1', created_at: 'x', expires_at: 99, urls: ['a', 'b', 'c'] });
    j.markDone(1);
    expect(readJournal(path).some((r) => r.t === 'done')).toBe(false);
    j.append({ t: 'uploaded' });
    const records = readJournal(path);
    expect(records.map((r) => r.t)).toEqual(['planned', 'created', 'done', 'uploaded']);
    j.close();
  });

  it('cuts off a torn last line on reopen and keeps appending after it', () => {
    const path = join(dir, 'j.jsonl');
    const j = Journal.create(path, plannedRecord());
    j.append({ t: 'creating', marker: 'm1', at: 5 });
    j.close();
    appendFileSync(path, '{"t":"created","exam_id":"exm_');
    const { journal, records } = Journal.open(path);
    expect(records.map((r) => r.t)).toEqual(['planned', 'creating']);
    journal.append({ t: 'created', exam_id: 'exm_2', created_at: 'x', expires_at: 1, urls: ['a', 'b', 'c'] });
    journal.close();
    const s = replayJournal(readJournal(path));
    expect(s.exam?.id).toBe('exm_2');
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean)).toHaveLength(3);
  });

  it('forgets the files sent to an exam once that exam is discarded', () => {
    const path = join(dir, 'j.jsonl');
    const j = Journal.create(path, plannedRecord());
    j.append({ t: 'created', exam_id: 'exm_1', created_at: 'x', expires_at: 1, urls: ['a', 'b', 'c'] });
    j.markDone(0);
    j.append({ t: 'discarded', exam_id: 'exm_1', reason: 'url_expired' });
    j.close();
    const s = replayJournal(readJournal(path));
    expect(s.phase).toBe('planned');
    expect(s.exam).toBeNull();
    expect(s.doneCount).toBe(0);
    expect(s.discarded).toEqual(['exm_1']);
  });

  it('compacts a finished job to one summary line without file list or patient fields', () => {
    const path = join(dir, 'j.jsonl');
    const j = Journal.create(path, plannedRecord());
    j.compact({
      t: 'summary',
      job_id: 'job-1',
      root: '/exports/a',
      fingerprint: 'fp',
      outcome: 'ready',
      exam_id: 'exm_1',
      files: 3,
      bytes: 33,
      mode: 'files',
      at: 9,
    });
    const text = readFileSync(path, 'utf8');
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(text).not.toContain('123');
    expect(readFirstRecord(path)).toMatchObject({ t: 'summary', exam_id: 'exm_1' });
  });

  it('reads journals of older versions (no checksums) as before, and reports no damage', () => {
    const path = join(dir, 'old.jsonl');
    const lines = [plannedRecord(), { t: 'creating', marker: 'm1', at: 5 }, { t: 'done', i: [1] }];
    writeFileSync(path, lines.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const { records, damage } = readJournalChecked(path);
    expect(records.map((r) => r.t)).toEqual(['planned', 'creating', 'done']);
    expect(damage).toBeNull();
  });

  it('finds a changed line anywhere, even one that still parses, and an emptied journal', () => {
    const path = join(dir, 'j.jsonl');
    const j = Journal.create(path, plannedRecord());
    j.append({ t: 'creating', marker: 'm1', at: 5 });
    j.append({ t: 'done', i: [1] });
    j.append({ t: 'uploaded' });
    j.close();
    const text = readFileSync(path, 'utf8');
    // Still JSON, still a record: only the checksum tells.
    writeFileSync(path, text.replace('"i":[1]', '"i":[2]'));
    expect(readJournalChecked(path).damage).toEqual({ lines: [3], total: 4, empty: false });
    expect(readJournalChecked(path).records.map((r) => r.t)).toEqual(['planned', 'creating', 'uploaded']);
    // A line without a checksum among lines with one is damaged too.
    writeFileSync(path, text.replace(/,"k":"[0-9a-f]{8}"\}\n(?=\{"t":"uploaded")/, '}\n'));
    expect(readJournalChecked(path).damage?.lines).toEqual([3]);
    writeFileSync(path, '');
    expect(readJournalChecked(path).damage).toEqual({ lines: [], total: 0, empty: true });
    // A torn last line (no newline) is a crash's cut write, not damage.
    writeFileSync(path, text.slice(0, -10));
    expect(readJournalChecked(path).damage).toBeNull();
  });
});
