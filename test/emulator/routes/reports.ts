import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { App } from '../core/app';
import { badRequest, escapeHtml, limitExceeded, notFound, sendHtml } from '../core/http';
import { newId } from '../core/ids';
import type { Exam, Report } from '../core/state';
import { objectBody, parseWith } from '../core/validate';
import { decodeStrictBase64 } from '../documents/base64';
import { accountOf, callerExam } from '../documents/exam-access';
import { removeObject, writeObject } from '../documents/document-objects';
import { presign } from './storage';

/** Largest report PDF accepted (CHOICES.md, "Reports"). */
export const MAX_REPORT_BYTES = 40 * 1024 * 1024;
const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');

const uploadSchema = z.strictObject({
  pdf_base64: z.string().min(1),
  filename: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .refine(
      (f) => ![...f].some((c) => c === '/' || c === '\\' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f),
      'must be a plain file name (no path separators or control characters)',
    )
    .optional(),
});

function summary(r: Report): Record<string, unknown> {
  return { filename: r.filename, size_bytes: r.size_bytes, uploaded_at: r.uploaded_at, signed: r.signature !== null };
}

/** PDF radiology reports (API-v1.md §2.7, §3.6, §4.4): upload/replace, presigned download, e-signature, delete. */
export function register(app: App): void {
  const objectName = (key: string): string => key.slice(key.indexOf('/') + 1);

  app.api.add('POST', '/exams/:id/report', { scope: 'exams:write' }, (ctx) => {
    const exam = callerExam(app, ctx);
    const body = parseWith(uploadSchema, objectBody(ctx.body));
    const pdf = decodeStrictBase64(body.pdf_base64);
    if (!pdf)
      throw badRequest('pdf_base64 is not valid base64', [
        { field: 'pdf_base64', message: 'expected standard base64 without whitespace' },
      ]);
    if (pdf.length > MAX_REPORT_BYTES) {
      throw limitExceeded(400, `The report PDF exceeds ${MAX_REPORT_BYTES} bytes`, { limit_bytes: MAX_REPORT_BYTES });
    }
    if (pdf.length < PDF_MAGIC.length || !pdf.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC)) {
      throw badRequest('pdf_base64 is not a PDF document', [
        { field: 'pdf_base64', message: 'decoded bytes must start with %PDF-' },
      ]);
    }
    const key = `${exam.id}/report-${newId('', 16)}.pdf`;
    writeObject(app, key, pdf);
    const previous = exam.report;
    exam.report = {
      filename: body.filename ?? 'report.pdf',
      size_bytes: pdf.length,
      object: key,
      sha256: createHash('sha256').update(pdf).digest('hex'),
      uploaded_at: app.clock.nowIso(),
      // A new document is not covered by the old signature.
      signature: null,
    };
    if (previous) removeObject(app, previous.object);
    exam.updated_at = app.clock.nowIso();
    app.events.emit(
      exam.account_id,
      'report.published',
      { exam_id: exam.id, filename: exam.report.filename, size_bytes: pdf.length },
      exam.sandbox,
    );
    return { status: 201, body: summary(exam.report) };
  });

  app.api.add('GET', '/exams/:id/report', { scope: 'exams:read' }, (ctx) => {
    const exam = callerExam(app, ctx);
    const r = exam.report;
    if (!r) throw notFound('Report');
    const link = presign(app, exam.id, objectName(r.object));
    return {
      body: {
        url: link.url,
        expires_at: link.expires_at,
        ...summary(r),
        signature: r.signature ? { ...r.signature } : null,
      },
    };
  });

  app.api.add('POST', '/exams/:id/report/sign', { scope: 'exams:write' }, (ctx) => {
    const exam = callerExam(app, ctx);
    const r = exam.report;
    if (!r) throw notFound('Report');
    if (!r.signature) {
      const signatureId = newId('sig_');
      r.signature = {
        signature_id: signatureId,
        signed_at: app.clock.nowIso(),
        verification_url: `${app.origin()}/verify/${signatureId}`,
      };
      app.events.emit(
        exam.account_id,
        'report.signed',
        { exam_id: exam.id, signature_id: signatureId, verification_url: r.signature.verification_url },
        exam.sandbox,
      );
      app.events.notify(
        exam.account_id,
        {
          type: 'report_signed',
          title: 'Report signed',
          body: `The report of exam "${exam.name}" was signed electronically.`,
          exam_id: exam.id,
        },
        exam.sandbox,
      );
    }
    return { body: { ...r.signature } };
  });

  app.api.add('DELETE', '/exams/:id/report', { scope: 'exams:write' }, (ctx) => {
    const exam = callerExam(app, ctx);
    const r = exam.report;
    if (!r) return { body: { deleted: true, already_deleted: true } };
    exam.report = null;
    exam.updated_at = app.clock.nowIso();
    removeObject(app, r.object);
    app.events.activity(exam.account_id, 'report.deleted', 'exam', exam.id, { filename: r.filename }, exam.sandbox);
    return { body: { deleted: true } };
  });

  app.public.add('GET', '/verify/:signature_id', { scope: null }, ({ res, params }) => {
    const id = params['signature_id'] ?? '';
    const exam = app.store.state.exams.find((e) => e.report?.signature?.signature_id === id);
    sendHtml(res, exam ? 200 : 404, verifyPage(app, exam));
    return null;
  });
}

/** Public proof of a signature; it names the clinic and the document, never the patient. */
function verifyPage(app: App, exam: Exam | undefined): string {
  const r = exam?.report;
  const sig = r?.signature;
  if (!exam || !r || !sig) {
    return page(
      'Signature not found',
      '<h1>Signature not found</h1><p>No valid signed report has this identifier. It may have been replaced or deleted.</p>',
    );
  }
  const row = (k: string, v: string): string => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`;
  return page(
    'Valid electronic signature',
    `<h1>Valid electronic signature</h1><table>${[
      row('Signature', sig.signature_id),
      row('Clinic', accountOf(app, exam)?.clinic_name ?? ''),
      row('Document', r.filename),
      row('Size', `${r.size_bytes} bytes`),
      row('SHA-256', r.sha256),
      row('Uploaded', r.uploaded_at),
      row('Signed', sig.signed_at),
    ].join('')}</table>`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}
