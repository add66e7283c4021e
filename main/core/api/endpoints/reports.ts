import { z } from 'zod';
import type { CallOptions, Transport } from '../http/http';
import { apiPath, type ApiPath } from '../http/http';
import { deletedSchema, type Deleted, optBoolean, optNumber, optString } from '../http/api-schema';

/** The report PDF, either already base64-encoded (as the API takes it) or as raw bytes. */
export type UploadReportRequest = { filename?: string } & ({ pdf_base64: string } | { pdf: Uint8Array });

export const reportUploadedSchema = z.looseObject({
  filename: optString,
  size_bytes: optNumber,
  uploaded_at: optString,
  signed: optBoolean,
});
export type ReportUploaded = z.infer<typeof reportUploadedSchema>;

export const reportSignatureSchema = z.looseObject({
  signature_id: z.string(),
  verification_url: optString,
  signed_at: optString,
});
export type ReportSignature = z.infer<typeof reportSignatureSchema>;

/** GET answer: a presigned URL of the PDF plus the signature when signed. */
export const reportSchema = z.looseObject({
  url: z.string(),
  expires_at: optString,
  filename: optString,
  size_bytes: optNumber,
  uploaded_at: optString,
  signed: optBoolean,
  signature: reportSignatureSchema.nullish(),
});
export type Report = z.infer<typeof reportSchema>;

const report = (examId: string, ...rest: (string | number)[]): ApiPath => apiPath('exams', examId, 'report', ...rest);

/** Radiology report endpoints (§4.4). */
export function reportsApi(t: Transport) {
  return {
    /** POST /exams/{id}/report: uploads or replaces the report PDF. Never retried (it republishes). */
    upload: (examId: string, request: UploadReportRequest, options?: CallOptions): Promise<ReportUploaded> => {
      const pdf_base64 =
        'pdf' in request
          ? Buffer.from(request.pdf.buffer, request.pdf.byteOffset, request.pdf.byteLength).toString('base64')
          : request.pdf_base64;
      const body = request.filename === undefined ? { pdf_base64 } : { pdf_base64, filename: request.filename };
      return t.json(
        { method: 'POST', path: report(examId), body, kind: 'write', idempotent: false },
        reportUploadedSchema,
        options,
      );
    },

    /** GET /exams/{id}/report: where to download the PDF, and its signature. NotFoundError when none. */
    get: (examId: string, options?: CallOptions): Promise<Report> =>
      t.json({ method: 'GET', path: report(examId), kind: 'read', idempotent: true }, reportSchema, options),

    /** DELETE /exams/{id}/report: succeeds even when there is none. */
    remove: (examId: string, options?: CallOptions): Promise<Deleted> =>
      t.json({ method: 'DELETE', path: report(examId), kind: 'write', idempotent: true }, deletedSchema, options),

    /** POST /exams/{id}/report/sign: e-signs the report; returns the public verification URL. */
    sign: (examId: string, options?: CallOptions): Promise<ReportSignature> =>
      t.json(
        { method: 'POST', path: report(examId, 'sign'), kind: 'write', idempotent: false },
        reportSignatureSchema,
        options,
      ),
  };
}
