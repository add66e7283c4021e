// What the patient's sheet needs, read from the service: the exam (§4.2 GET /exams/{id}: patient,
// type, date, viewer link and password), its public page and PIN (GET /exams/{id}/access-pin) and
// the clinic's name (GET /me). Three reads, no write.
import type { ApiClient } from '../api';
import type { SheetData } from './handout-pdf';

export type SheetReader = {
  exams: Pick<ApiClient['exams'], 'get' | 'getAccessPin'>;
  account: Pick<ApiClient['account'], 'me'>;
};

/** The sheet cannot be made: the exam has no public page yet (not ready), or no PIN. */
export class SheetUnavailableError extends Error {
  override name = 'SheetUnavailableError';
  constructor(readonly code: 'not_ready' | 'no_public_page') {
    super(
      code === 'not_ready'
        ? 'the exam is not ready yet'
        : 'the service gave no public page address or PIN for this exam',
    );
  }
}

export async function readSheetData(client: SheetReader, examId: string, signal?: AbortSignal): Promise<SheetData> {
  const options = signal ? { signal } : undefined;
  const [exam, page, me] = await Promise.all([
    client.exams.get(examId, options),
    client.exams.getAccessPin(examId, options),
    client.account.me(options),
  ]);
  if (exam.status && exam.status !== 'ready') throw new SheetUnavailableError('not_ready');
  const pin = page.pin || exam.public_page_pin;
  if (!page.public_url || !pin) throw new SheetUnavailableError('no_public_page');
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
