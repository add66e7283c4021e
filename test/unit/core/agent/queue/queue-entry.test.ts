// A queue entry's one state union, read back from disk and written again: which saved jobs run
// again after a restart, which wait for staff, and which requests reuse or replace a job.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadJobView } from '@preload/contract';
import {
  isLive,
  isSameUpload,
  isSupersededBy,
  pausedByStaff,
  recordOf,
  restoredEntry,
  type UploadRequest,
} from '@main/core/agent/queue/queue-entry';
import { lazyPort } from '@main/core/agent/queue/queue-port';
import type { JobRecord } from '@main/core/agent/queue/upload-list-store';
import { UploadJob } from '@main/core/upload/job/engine';
import { planUpload } from '@main/core/upload/plan/plan';

const view: UploadJobView = {
  id: 'up_1',
  inbox_id: 'in_1',
  name: 'x',
  patient_name: '',
  exam_type: 'cbct',
  phase: 'uploading',
  mode: 'files',
  exam_id: 'ex_1',
  viewer_url: null,
  bytes_total: 100,
  bytes_sent: 40,
  files_total: 1,
  files_done: 0,
  rate: 5,
  eta_seconds: 9,
  error: null,
  retry_at: null,
  created_at: 't',
  updated_at: 't',
};
const ledger = { study_uid: '1.2.3', fingerprint: 'f1', files: 1, bytes: 4 };

let dir: string;
let job: UploadJob;
let request: UploadRequest;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'qe-'));
  writeFileSync(join(dir, 'a.dcm'), 'DICM');
  request = {
    inboxId: 'in_1',
    source: 'auto',
    root: dir,
    files: [{ path: join(dir, 'a.dcm'), name: 'a.dcm' }],
    fields: { name: 'x' },
    expirationDays: null,
    ledger,
  };
  const plan = await planUpload({ root: dir, fields: request.fields, files: request.files, mode: 'files' });
  job = UploadJob.create(plan, { port: lazyPort({ port: () => null }), dataDir: join(dir, 'data') });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const record = (over: Partial<UploadJobView>, rest: Partial<JobRecord> = {}): JobRecord => ({
  view: { ...view, ...over },
  journal: job.journalPath,
  source: 'auto',
  root: dir,
  expiration_days: null,
  ledger,
  user_paused: false,
  ...rest,
});

describe('a saved job read back after a restart', () => {
  it('that was running or waiting to retry by itself runs again from its journal', () => {
    for (const over of [
      { phase: 'uploading' as const },
      { phase: 'failed' as const, error: { code: 'network', message: 'm' }, retry_at: '2026-01-01T00:00:00Z' },
    ]) {
      let reopened = 0;
      const e = restoredEntry(record(over), () => (reopened++, job));
      expect(reopened).toBe(1);
      expect(e.state).toEqual({ kind: 'waiting' });
      expect(e.view).toMatchObject({ phase: 'queued', error: null, retry_at: null, rate: 0, eta_seconds: null });
      expect(e.job).toBe(job);
    }
  });

  it('that staff paused stays paused, and is saved as paused again', () => {
    const e = restoredEntry(record({ phase: 'paused' }, { user_paused: true }), () => job);
    expect(e.state).toEqual({ kind: 'paused', byUser: true });
    expect(pausedByStaff(e.state)).toBe(true);
    expect(recordOf(e)).toMatchObject({ user_paused: true, journal: job.journalPath, ledger });
    // A job stood down (another computer took the study) was not paused by staff: it is queued again.
    expect(restoredEntry(record({ phase: 'paused' }), () => job).state).toEqual({ kind: 'waiting' });
  });

  it('that failed for good waits for staff, without reopening its journal', () => {
    let reopened = 0;
    const e = restoredEntry(
      record({ phase: 'failed', error: { code: 'rejected', message: 'm' } }),
      () => (reopened++, job),
    );
    expect(reopened).toBe(0);
    expect(e.state).toEqual({ kind: 'needs_staff' });
    expect(isLive(e.state)).toBe(false);
  });

  it('whose journal is gone waits for staff as interrupted', () => {
    const e = restoredEntry(record({ phase: 'uploading' }), () => null);
    expect(e.state).toEqual({ kind: 'needs_staff' });
    expect(e.view).toMatchObject({ phase: 'failed', error: { code: 'interrupted' } });
  });

  it('that was ready or cancelled is over', () => {
    for (const phase of ['ready', 'cancelled'] as const)
      expect(restoredEntry(record({ phase }), () => job).state).toEqual({ kind: 'over' });
  });
});

describe('a new request against a queued job', () => {
  const live = () => restoredEntry(record({ phase: 'uploading' }), () => job);

  it('reuses the live job of the same item and files, and replaces it when the files changed', () => {
    expect(isSameUpload(live(), request)).toBe(true);
    expect(isSupersededBy(live(), request)).toBe(false);
    const changed = { ...request, ledger: { ...ledger, fingerprint: 'f2' } };
    expect(isSameUpload(live(), changed)).toBe(false);
    expect(isSupersededBy(live(), changed)).toBe(true);
    // Another item, or a job that is over, is neither.
    expect(isSameUpload(live(), { ...request, inboxId: 'in_2' })).toBe(false);
    const over = restoredEntry(record({ phase: 'cancelled' }), () => job);
    expect(isSupersededBy(over, changed)).toBe(false);
    expect(isSameUpload(over, request)).toBe(false);
  });

  it('never uploads a study twice automatically once its exam is ready', () => {
    const ready = restoredEntry(record({ phase: 'ready' }), () => job);
    expect(isSameUpload(ready, request)).toBe(true);
    expect(isSameUpload(ready, { ...request, source: 'review' })).toBe(false);
  });
});
