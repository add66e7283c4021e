// Exams on the service (API v1 §4.2): the list, one exam, its thumbnail and the patient's other
// exams, editing and deleting.
import { z } from 'zod';
import { id, method } from './method';
import { RADIOGRAPH_SUBTYPES } from './vocabulary';

export type ExamCounters = { views: number; shares: number; downloads: number };

/** A stored exam as the window shows it. Secrets (viewer password, PIN) only come with `exams:get`. */
export type ExamView = {
  id: string;
  name: string;
  exam_type: string;
  status: string;
  patient_name: string | null;
  patient_id: string | null;
  birth_date: string | null;
  reason: string | null;
  expiration_days: number | null;
  expires_at: string | null;
  radiograph_subtype: string | null;
  file_count: number | null;
  storage_bytes: number | null;
  counters: ExamCounters | null;
  extra_series: number;
  viewer_url: string | null;
  share_url: string | null;
  share_password: string | null;
  public_page_pin: string | null;
  created_at: string | null;
};

export type ExamPage = { exams: ExamView[]; total: number; limit: number; offset: number };

/** The thumbnail as bytes main downloaded, or "not generated yet" (404 thumbnail_not_ready). */
export type ExamThumbnail = { ready: true; content_type: string; base64: string } | { ready: false };

export type PatientExam = { id: string; name: string | null; exam_type: string | null; created_at: string | null };

const ymd = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD');

/** The fields PATCH /exams/{id} accepts; only the ones given change. */
export const examEditSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    patient_name: z.string().max(200).optional(),
    patient_id: z.string().max(100).optional(),
    birth_date: ymd.optional(),
    reason: z.string().max(2000).optional(),
    expiration_days: z.number().int().min(1).max(3650).nullable().optional(),
    radiograph_subtype: z.enum(RADIOGRAPH_SUBTYPES).optional(),
  })
  .strict();
export type ExamEdit = z.input<typeof examEditSchema>;

const byId = z.object({ id }).strict();

export const examsMethods = {
  'exams:list': method<ExamPage>()(
    z.object({ limit: z.number().int().min(1).max(100), offset: z.number().int().min(0).max(1_000_000) }).strict(),
  ),
  'exams:get': method<ExamView>()(byId),
  'exams:thumbnail': method<ExamThumbnail>()(byId),
  'exams:patient-exams': method<{ exams: PatientExam[] }>()(byId),
  'exams:update': method<ExamView>()(z.object({ id, fields: examEditSchema }).strict()),
  'exams:delete': method<{ deleted: true; already_deleted: boolean }>()(byId),
} as const;
