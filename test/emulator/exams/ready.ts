import type { App } from '../core/app';
import type { Exam } from '../core/state';
import { scheduleThumbnail } from './thumbnail';
import { shareUrl, viewerUrl } from './view';

/** Data of exam.confirmed, exactly the fields of API-v1.md §6.2. */
export function confirmedData(app: App, exam: Exam): Record<string, unknown> {
  return {
    exam_id: exam.id,
    exam_type: exam.exam_type,
    patient_name: exam.patient_name,
    patient_id: exam.patient_id,
    status: exam.status,
    share_url: shareUrl(app, exam),
    viewer_url: viewerUrl(app, exam),
  };
}

/**
 * uploading → ready (API-v1.md §3.1): stored bytes counted, exam.confirmed emitted, an "exam ready"
 * notification, and the thumbnail scheduled.
 */
export function markReady(app: App, exam: Exam): void {
  const now = app.clock.nowIso();
  exam.status = 'ready';
  exam.confirmed_at = now;
  exam.updated_at = now;
  exam.storage_bytes =
    exam.files.reduce((s, f) => s + f.size, 0) + exam.extra_series.reduce((s, x) => s + x.storage_bytes, 0);
  app.events.emit(exam.account_id, 'exam.confirmed', confirmedData(app, exam), exam.sandbox);
  app.events.notify(
    exam.account_id,
    {
      type: 'exam_ready',
      title: 'Exam ready',
      body: `The exam "${exam.name}" finished uploading and is ready to share.`,
      exam_id: exam.id,
    },
    exam.sandbox,
  );
  scheduleThumbnail(app, exam);
}
