// The radiology report of an exam (API v1 §4.4): one PDF, uploaded, viewed, signed, deleted.
import { z } from 'zod';
import { id, method } from './method';

/** Reports above this size are refused before upload (checked in the window and again in main). */
export const MAX_REPORT_BYTES = 20 * 1024 * 1024;

export type ReportSignatureView = { signature_id: string; signed_at: string | null; verification_url: string | null };
export type ReportView = {
  filename: string | null;
  size_bytes: number | null;
  uploaded_at: string | null;
  signed: boolean;
  signature: ReportSignatureView | null;
};

const byExam = z.object({ exam_id: id }).strict();

export const reportsMethods = {
  'reports:get': method<{ report: ReportView | null }>()(byExam),
  /** The PDF's bytes (base64), downloaded by main from the presigned URL. */
  'reports:pdf': method<{ base64: string }>()(byExam),
  'reports:upload': method<{ report: ReportView }>()(
    z
      .object({
        exam_id: id,
        filename: z.string().trim().min(1).max(255),
        base64: z
          .string()
          .min(8)
          .max(Math.ceil((MAX_REPORT_BYTES * 4) / 3) + 4)
          .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64'),
      })
      .strict(),
  ),
  'reports:sign': method<ReportSignatureView>()(byExam),
  'reports:delete': method<{ deleted: true }>()(byExam),
} as const;
