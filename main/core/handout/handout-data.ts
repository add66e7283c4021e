// What the patient's sheet needs, read from the service: the exam (§4.2 GET /exams/{id}: patient,
// type, date, viewer link and password), its public page and PIN (GET /exams/{id}/access-pin) and
// the clinic's name (GET /me). Three reads, no write.
import type { ApiClient } from '../api';
import type { HandoutData } from './handout-pdf';

export type HandoutReader = {
  exams: Pick<ApiClient['exams'], 'get' | 'getAccessPin'>;
  account: Pick<ApiClient['account'], 'me'>;
};

/** The sheet cannot be made: the exam has no public page yet (not ready), or no PIN. */
export class HandoutUnavailableError extends Error {
  override name = 'HandoutUnavailableError';
  constructor(readonly code: 'not_ready' | 'no_public_page') {
    super(
      code === 'not_ready'
        ? 'the exam is not ready yet'
        : 'the service gave no public page address or PIN for this exam',
    );
  }
}

export async function readHandoutData(
  client: HandoutReader,
  examId: string,
  signal?: AbortSignal,
): Promise<HandoutData> {
  const options = signal ? { signal } : undefined;
  const [exam, page, me] = await Promise.all([
    client.exams.get(examId, options),
    client.exams.getAccessPin(examId, options),
    client.account.me(options),
  ]);
  if (exam.status && exam.status !== 'ready') throw new HandoutUnavailableError('not_ready');
  const pin = page.pin || exam.public_page_pin;
  if (!page.public_url || !pin) throw new HandoutUnavailableError('no_public_page');
  return {
    clinicName: me.clinic_name ?? '',
    patientName: exam.patient_name ?? '',
    examName: exam.name ?? '',
    examType: exam.exam_type ?? 'cbct',
    examDate: exam.created_at ?? null,
    publicUrl: page.public_url,
    pin,
    viewerUrl: exam.viewer_url ?? exam.share_url ?? null,
    password: exam.share_password ?? null,
  };
}
