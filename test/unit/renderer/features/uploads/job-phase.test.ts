import { describe, expect, it } from 'vitest';
import type { UploadJobView, UploadPhase } from '@preload/contract';
import { actionsFor, sortJobs } from '@renderer/src/features/uploads/job-phase';

const job = (id: string, phase: UploadPhase, created_at = '2026-03-02T10:00:00Z'): UploadJobView => ({
  id,
  inbox_id: null,
  name: id,
  patient_name: '',
  exam_type: 'cbct',
  phase,
  mode: 'files',
  exam_id: null,
  viewer_url: null,
  bytes_total: 10,
  bytes_sent: 0,
  files_total: 1,
  files_done: 0,
  rate: 0,
  eta_seconds: null,
  error: null,
  retry_at: null,
  created_at,
  updated_at: created_at,
});

describe('actionsFor', () => {
  it('offers pause and cancel while sending, resume when paused, retry when failed, nothing when ready', () => {
    expect(actionsFor(job('a', 'uploading'))).toEqual({ pause: true, resume: false, cancel: true, retry: false });
    expect(actionsFor(job('a', 'paused'))).toEqual({ pause: false, resume: true, cancel: true, retry: false });
    expect(actionsFor(job('a', 'failed'))).toEqual({ pause: false, resume: false, cancel: true, retry: true });
    expect(actionsFor(job('a', 'ready'))).toEqual({ pause: false, resume: false, cancel: false, retry: false });
    expect(actionsFor(job('a', 'confirming')).pause).toBe(false);
  });
});

describe('sortJobs', () => {
  it('lists running and paused jobs first, then failed, then finished, newest first in each group', () => {
    const jobs = [
      job('ready-old', 'ready', '2026-03-01T10:00:00Z'),
      job('failed', 'failed'),
      job('ready-new', 'ready', '2026-03-02T11:00:00Z'),
      job('paused', 'paused', '2026-03-01T09:00:00Z'),
      job('uploading', 'uploading', '2026-03-02T09:00:00Z'),
    ];
    expect(sortJobs(jobs).map((j) => j.id)).toEqual(['uploading', 'paused', 'failed', 'ready-new', 'ready-old']);
  });
});
