// When a running upload stops holding the queue's line for lack of headway: bytes past the most it
// had sent or a finished file are headway; the same bytes sent again after a failed attempt are
// not, and time paused by staff does not count.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UploadJobView } from '@preload/contract';
import { watchQuietRun } from '@main/core/agent/queue/quiet-run';

const start: UploadJobView = {
  id: 'up_1',
  inbox_id: 'in_1',
  name: 'x',
  patient_name: '',
  exam_type: 'cbct',
  phase: 'uploading',
  mode: 'zip',
  exam_id: 'ex_1',
  viewer_url: null,
  bytes_total: 1000,
  bytes_sent: 100,
  files_total: 2,
  files_done: 0,
  rate: 0,
  eta_seconds: null,
  error: null,
  retry_at: null,
  created_at: 't',
  updated_at: 't',
};

let view: UploadJobView;
let counts: boolean;
let quiet: number;
let stop: () => void;

beforeEach(() => {
  vi.useFakeTimers();
  view = { ...start };
  counts = true;
  quiet = 0;
  stop = watchQuietRun(
    () => view,
    () => counts,
    () => quiet++,
    4_000,
  );
});
afterEach(() => {
  stop();
  vi.useRealTimers();
});

describe('watchQuietRun', () => {
  it('tells once, after the quiet time without headway', () => {
    vi.advanceTimersByTime(3_000);
    expect(quiet).toBe(0);
    vi.advanceTimersByTime(2_000);
    expect(quiet).toBe(1);
    vi.advanceTimersByTime(20_000);
    expect(quiet).toBe(1);
  });

  it('takes new bytes and finished files as headway', () => {
    for (let i = 0; i < 4; i++) {
      vi.advanceTimersByTime(3_000);
      view = i % 2 ? { ...view, files_done: view.files_done + 1 } : { ...view, bytes_sent: view.bytes_sent + 1 };
    }
    expect(quiet).toBe(0);
    vi.advanceTimersByTime(5_000);
    expect(quiet).toBe(1);
  });

  it('does not take the same bytes sent again after a failed attempt as headway', () => {
    for (let i = 0; i < 4; i++) {
      vi.advanceTimersByTime(1_000);
      view = { ...view, bytes_sent: i % 2 ? 100 : 0 };
    }
    expect(quiet).toBe(1);
  });

  it('does not count time the run is paused by staff', () => {
    counts = false;
    vi.advanceTimersByTime(30_000);
    expect(quiet).toBe(0);
    counts = true;
    vi.advanceTimersByTime(3_000);
    expect(quiet).toBe(0);
    vi.advanceTimersByTime(2_000);
    expect(quiet).toBe(1);
  });

  it('stops watching when told', () => {
    stop();
    vi.advanceTimersByTime(30_000);
    expect(quiet).toBe(0);
  });
});
