import type { App, AuthInfo } from '../core/app';
import { notFound } from '../core/http';
import type { Exam, ExtraSeries } from '../core/state';

/** Exams the caller may see: its account's, live and sandbox kept apart. */
export function visibleExams(app: App, auth: AuthInfo): Exam[] {
  return app.store.state.exams.filter((e) => e.account_id === auth.account.id && e.sandbox === auth.sandbox);
}

/** The caller's exam `id`, or 404 not_found (unknown, deleted, another account's, other partition). */
export function getExam(app: App, auth: AuthInfo, id: string): Exam {
  const exam = app.store.state.exams.find((e) => e.id === id);
  if (!exam || exam.account_id !== auth.account.id || exam.sandbox !== auth.sandbox) throw notFound('Exam');
  return exam;
}

export function shareUrl(app: App, exam: Exam): string {
  return `${app.origin()}/s/${exam.share_token}`;
}

export function viewerUrl(app: App, exam: Exam): string {
  return `${app.origin()}/viewer/${exam.share_token}`;
}

/** created_at + expiration_days, or null when the exam never expires. */
export function expiresAt(exam: Exam): string | null {
  if (exam.expiration_days === null) return null;
  return new Date(Date.parse(exam.created_at) + exam.expiration_days * 86_400_000).toISOString();
}

function extraView(x: ExtraSeries): Record<string, unknown> {
  return {
    index: x.index,
    label: x.label,
    status: x.status,
    file_count: x.files.length,
    storage_bytes: x.storage_bytes,
    created_at: x.created_at,
    confirmed_at: x.confirmed_at,
  };
}

/** The exam object of CHOICES.md, "Exams" (create, get, list, patch answers). */
export function examView(app: App, exam: Exam): Record<string, unknown> {
  return {
    id: exam.id,
    name: exam.name,
    exam_type: exam.exam_type,
    patient_name: exam.patient_name,
    patient_id: exam.patient_id,
    birth_date: exam.birth_date,
    reason: exam.reason,
    expiration_days: exam.expiration_days,
    expires_at: expiresAt(exam),
    radiograph_subtype: exam.radiograph_subtype,
    status: exam.status,
    upload_mode: exam.upload_mode,
    file_count: exam.files.length,
    storage: { bytes: exam.storage_bytes },
    counters: { ...exam.counters },
    share_url: shareUrl(app, exam),
    viewer_url: viewerUrl(app, exam),
    share_password: exam.share_password,
    public_page_pin: exam.public_page_pin,
    share_token: exam.share_token,
    extra_series: exam.extra_series.map(extraView),
    thumbnail_ready: exam.thumbnail !== null,
    test_mode: exam.sandbox,
    created_at: exam.created_at,
    updated_at: exam.updated_at,
    confirmed_at: exam.confirmed_at,
  };
}
