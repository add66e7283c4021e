import type { App, AuthInfo } from '../core/app';
import { limitExceeded } from '../core/http';
import type { Exam } from '../core/state';
import { visibleExams } from './view';

/** Bytes an exam holds or has reserved: stored bytes plus declared sizes of uploads still open. */
function committedBytes(exam: Exam): number {
  let bytes = exam.storage_bytes;
  if (exam.status === 'uploading') bytes += exam.zip ? exam.zip.size : exam.files.reduce((s, f) => s + f.size, 0);
  for (const x of exam.extra_series) if (x.status === 'uploading') bytes += x.files.reduce((s, f) => s + f.size, 0);
  return bytes;
}

/**
 * Refuses a new exam when the plan's exam count is reached, or `declaredBytes` do not fit in what is
 * left of the plan's storage (409 limit_exceeded). Sandbox exams are measured among themselves.
 */
export function checkQuota(app: App, auth: AuthInfo, declaredBytes: number, newExam: boolean): void {
  const exams = visibleExams(app, auth);
  if (newExam && exams.length >= auth.account.exam_limit) {
    throw limitExceeded(409, `The ${auth.account.plan} plan allows ${auth.account.exam_limit} exams`, {
      limit: auth.account.exam_limit,
    });
  }
  const used = exams.reduce((s, e) => s + committedBytes(e), 0);
  const remaining = Math.max(0, auth.account.storage_limit_bytes - used);
  if (declaredBytes > remaining) {
    throw limitExceeded(409, `Not enough storage left: ${declaredBytes} bytes declared, ${remaining} available`, {
      limit_bytes: auth.account.storage_limit_bytes,
      available_bytes: remaining,
    });
  }
}
