// The job view as a pure reducer of engine events.
import { describe, expect, it } from 'vitest';
import type { UploadJobView } from '@preload/contract';
import { reduceJobView } from '@main/core/agent/queue/job-view';

const view: UploadJobView = {
  id: 'up_1',
  inbox_id: null,
  name: 'x',
  patient_name: '',
  exam_type: 'cbct',
  phase: 'queued',
  mode: 'files',
  exam_id: null,
  viewer_url: null,
  bytes_total: 100,
  bytes_sent: 0,
  files_total: 2,
  files_done: 0,
  rate: 0,
  eta_seconds: null,
  error: null,
  retry_at: null,
  created_at: 't',
  updated_at: 't',
};
const totals = { bytesTotal: 100, bytesSent: 40, filesTotal: 2, filesDone: 1, rate: 10, etaSeconds: 6 };

describe('reduceJobView', () => {
  it('follows the engine phases except ready/failed/cancelled and a pause the user asked for', () => {
    const s = reduceJobView(view, { type: 'status', status: 'transferring', examId: 'ex_1', totals }, false);
    expect(s).toMatchObject({
      phase: 'uploading',
      changed: true,
      troubled: false,
      view: { exam_id: 'ex_1', bytes_sent: 40, files_done: 1 },
    });
    expect(reduceJobView(view, { type: 'status', status: 'ready', examId: 'ex_1', totals }, false).phase).toBeNull();
    expect(
      reduceJobView(view, { type: 'status', status: 'transferring', examId: null, totals }, true).phase,
    ).toBeNull();
    expect(reduceJobView(view, { type: 'status', status: 'paused', examId: null, totals }, true).phase).toBe('paused');
  });

  it('marks retries as trouble and shows a rate-limit wait until the next movement', () => {
    expect(
      reduceJobView(
        view,
        {
          type: 'file',
          index: 0,
          name: 'a',
          progress: { state: 'retrying', attempt: 2, delayMs: 10, reason: 'HTTP 500' },
        },
        false,
      ).troubled,
    ).toBe(true);
    const limited = reduceJobView(view, { type: 'notice', code: 'rate_limited', message: 'waiting 3 s' }, false);
    expect(limited).toMatchObject({ troubled: true, view: { error: { code: 'rate_limited' } } });
    const moved = reduceJobView(limited.view, { type: 'progress', totals }, false);
    expect(moved.view.error).toBeNull();
    expect(moved.troubled).toBe(false);
  });
});
