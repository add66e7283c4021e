import { z } from 'zod';
import type { ExamType, RadiographSubtype, ShareLocale } from '../../../../preload/contract/vocabulary';
import { optBoolean, optNumber, optString, uploadUrlSchema } from '../http/api-schema';

export type { ExamType, RadiographSubtype };

/** A file announced before upload: its path inside the exam and its exact size. */
export type UploadFile = { name: string; size: number };

/** The exam's own fields, as POST /exams takes them (§2.2). */
export type ExamFields = {
  /** Internal name, at most 200 characters. */
  name: string;
  exam_type?: ExamType;
  patient_name?: string;
  patient_id?: string;
  /** YYYY-MM-DD */
  birth_date?: string;
  reason?: string;
  /** Days until expiry; null means never. */
  expiration_days?: number | null;
};

/** POST /exams body (§2.2): files mode lists the files, zip mode declares the archive size. */
export type CreateExamRequest = ExamFields &
  ({ upload_mode?: 'files'; files: UploadFile[] } | { upload_mode: 'zip'; zip_size_bytes: number });

/** PATCH /exams/{id}: only the fields given change. */
export type UpdateExamRequest = Partial<Omit<ExamFields, 'exam_type'>> & { radiograph_subtype?: RadiographSubtype };

export const extraSeriesSchema = z.looseObject({
  index: z.number(),
  label: optString,
  status: optString,
  file_count: optNumber,
  storage_bytes: optNumber,
  created_at: optString,
  confirmed_at: optString,
});
export type ExtraSeries = z.infer<typeof extraSeriesSchema>;

/** A stored exam (§2.2). Only the id is certain; `status` is `uploading` or `ready` (others may exist). */
export const examSchema = z.looseObject({
  id: z.string(),
  name: optString,
  exam_type: optString,
  status: optString,
  patient_name: optString,
  patient_id: optString,
  birth_date: optString,
  reason: optString,
  expiration_days: optNumber,
  expires_at: optString,
  radiograph_subtype: optString,
  upload_mode: optString,
  file_count: optNumber,
  storage: z.looseObject({ bytes: optNumber }).nullish(),
  counters: z.looseObject({ views: optNumber, shares: optNumber, downloads: optNumber }).nullish(),
  share_url: optString,
  viewer_url: optString,
  share_password: optString,
  public_page_pin: optString,
  share_token: optString,
  extra_series: z.array(extraSeriesSchema).nullish(),
  thumbnail_ready: optBoolean,
  test_mode: optBoolean,
  created_at: optString,
  updated_at: optString,
  confirmed_at: optString,
});
export type Exam = z.infer<typeof examSchema>;

/** POST /exams answer: the exam plus one upload URL per file, or a single URL in zip mode. */
export const createdExamSchema = examSchema.extend({
  upload_urls: z.array(uploadUrlSchema).nullish(),
  upload_url: z.looseObject({ url: z.string(), expires_at: optString }).nullish(),
});
export type CreatedExam = z.infer<typeof createdExamSchema>;

export const examListSchema = z.looseObject({
  exams: z.array(examSchema),
  total: optNumber,
  limit: optNumber,
  offset: optNumber,
});
export type ExamList = z.infer<typeof examListSchema>;

export const processedZipSchema = examSchema.extend({ files_stored: optNumber });
export type ProcessedZip = z.infer<typeof processedZipSchema>;

export const examDeletedSchema = z.looseObject({
  deleted: z.boolean(),
  exam_id: optString,
  already_deleted: optBoolean,
});
export type ExamDeleted = z.infer<typeof examDeletedSchema>;

/** POST /exams/{id}/share body. */
export type ShareExamRequest = {
  to: string | string[];
  cc?: string | string[];
  message?: string;
  locale?: ShareLocale;
};

/** Sandbox keys get `sent: false, reason: "test_mode_no_send"`. */
export const shareResultSchema = z.looseObject({
  sent: optBoolean,
  reason: optString,
  email_id: optString,
});
export type ShareResult = z.infer<typeof shareResultSchema>;

export type CreateExtraRequest = { label: string; files: UploadFile[] };

export const createdExtraSchema = z.looseObject({
  index: z.number(),
  upload_urls: z.array(uploadUrlSchema),
  confirm_url: optString,
});
export type CreatedExtra = z.infer<typeof createdExtraSchema>;

export const accessPinSchema = z.looseObject({
  pin: z.string(),
  clinic_slug: optString,
  public_url: optString,
});
export type AccessPin = z.infer<typeof accessPinSchema>;

export const rotatedPinSchema = z.looseObject({ pin: z.string(), rotated_at: optString });
export type RotatedPin = z.infer<typeof rotatedPinSchema>;

export const embedStateSchema = z.looseObject({
  enabled: z.boolean(),
  token: optString,
  snippet: optString,
  view_count: optNumber,
});
export type EmbedState = z.infer<typeof embedStateSchema>;

export type EnableEmbedRequest = { title?: string; show_year?: boolean; show_study_type?: boolean };

export const embedEnabledSchema = z.looseObject({
  embed_url: z.string(),
  iframe_snippet: z.string(),
  enabled: optBoolean,
  token: optString,
});
export type EmbedEnabled = z.infer<typeof embedEnabledSchema>;

export const embedRevokedSchema = z.looseObject({ enabled: optBoolean, revoked: optBoolean });
export type EmbedRevoked = z.infer<typeof embedRevokedSchema>;

export const patientExamsSchema = z.looseObject({
  exams: z.array(z.looseObject({ id: z.string(), name: optString, exam_type: optString, created_at: optString })),
});
export type PatientExams = z.infer<typeof patientExamsSchema>;

/** A thumbnail: JPEG or PNG bytes. */
export type Thumbnail = { bytes: Uint8Array; contentType: string };
