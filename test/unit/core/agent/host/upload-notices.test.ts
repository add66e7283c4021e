// The queue's OS notifications: each kind with its own title and body in the language in use at that
// moment, the job named; a failing notification service never reaches the queue.
import { describe, expect, it } from 'vitest';
import type { Language, UploadJobView } from '@preload/contract';
import type { Notice } from '@main/core/agent';
import { uploadNotices } from '@main/core/agent/host/upload-notices';

const view = { id: 'job-1', name: 'CBCT 2026-01-05' } as const satisfies Partial<UploadJobView>;
const job = view as unknown as UploadJobView;

describe('upload notices', () => {
  it('say each outcome in the current language, named after the job', () => {
    const sent: Notice[] = [];
    let language: Language = 'en';
    const notify = uploadNotices({ notify: (n) => sent.push(n) }, () => language);
    notify('exam_ready', job);
    notify('upload_failed', job);
    language = 'es';
    notify('upload_retrying', job);
    expect(sent.map((n) => [n.kind, n.title, n.job_id])).toEqual([
      ['exam_ready', 'Exam ready', 'job-1'],
      ['upload_failed', 'Upload failed', 'job-1'],
      // The host's notice kinds: a job that keeps retrying is shown like a failure.
      ['upload_failed', 'Subida en espera', 'job-1'],
    ]);
    expect(sent[0]?.body).toContain('CBCT 2026-01-05');
    expect(sent[2]?.body).toContain('reintentará');
  });

  it('swallow a notification service that throws', () => {
    const notify = uploadNotices(
      {
        notify: () => {
          throw new Error('no notification daemon');
        },
      },
      () => 'en',
    );
    expect(() => notify('exam_ready', job)).not.toThrow();
  });
});
