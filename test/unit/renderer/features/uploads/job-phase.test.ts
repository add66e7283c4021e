import { describe, expect, it } from 'vitest';
import en from '@renderer/locales/en.json';
import es from '@renderer/locales/es.json';
import type { UploadJobView, UploadPhase } from '@preload/contract';
import { actionsFor, jobErrorCode, sortJobs } from '@renderer/src/features/uploads/job-phase';

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

const locales: Record<string, unknown> = { en, es };

describe("a job's error as the window words it", () => {
  it('a network failure that is understood by its own net_* code (its words exist in both languages), else the code', () => {
    const net = { kind: 'clock_wrong', code: 'CERT_HAS_EXPIRED', host: 'api.example.cl', proxy: null } as const;
    expect(jobErrorCode({ code: 'network', message: 'x', net })).toBe('net_clock_wrong');
    expect(jobErrorCode({ code: 'network', message: 'x' })).toBe('network');
    for (const lang of ['en', 'es'])
      expect(Object.keys((locales[lang] as { errors: Record<string, unknown> }).errors)).toContain('net_clock_wrong');
  });
});
