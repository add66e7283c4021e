// The radiology report of an exam (§4.4). The PDF reaches the window as bytes: main downloads it
// from the presigned URL (which costs no API call), so the window's CSP never admits a remote URL.
import got from 'got';
import type { ReportView } from '../../../../preload/contract';
import { MAX_REPORT_BYTES } from '../../../../preload/contract/reports-methods';
import type { Report, ReportUploaded } from '../../api';
import { isApiError } from '../../api';
import type { Handlers } from '../host/contract-host';
import { ContractFailure } from '../host/contract-host';
import type { HandlerContext } from './handler-context';

const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');
/** A presigned URL is reused while it has at least this long to live. */
const URL_MARGIN_MS = 30_000;
const DOWNLOAD_TIMEOUT_MS = 60_000;

/** True when the bytes start like a PDF file (after the few junk bytes some writers put first). */
export function looksLikePdf(bytes: Buffer): boolean {
  return bytes.subarray(0, 1024).indexOf(PDF_MAGIC) !== -1;
}

function reportView(
  r: Pick<ReportUploaded, 'filename' | 'size_bytes' | 'uploaded_at' | 'signed'> & { signature?: Report['signature'] },
): ReportView {
  const signature = r.signature
    ? {
        signature_id: r.signature.signature_id,
        signed_at: r.signature.signed_at ?? null,
        verification_url: r.signature.verification_url ?? null,
      }
    : null;
  return {
    filename: r.filename ?? null,
    size_bytes: r.size_bytes ?? null,
    uploaded_at: r.uploaded_at ?? null,
    signed: r.signed === true || signature !== null,
    signature,
  };
}

export function createReportsHandlers(
  ctx: HandlerContext,
): Pick<Handlers, 'reports:get' | 'reports:pdf' | 'reports:upload' | 'reports:sign' | 'reports:delete'> {
  // The last presigned download URL of each exam's report, so viewing right after opening the panel
  // does not spend a second API call.
  const links = new Map<string, { url: string; expiresAt: number }>();

  async function fetchReport(examId: string): Promise<Report | null> {
    try {
      const r = await ctx.service.require().reports.get(examId);
      const expires = r.expires_at ? Date.parse(r.expires_at) : Number.NaN;
      links.set(examId, { url: r.url, expiresAt: Number.isNaN(expires) ? Date.now() + 5 * 60_000 : expires });
      return r;
    } catch (e) {
      if (isApiError(e, 'not_found', 'thumbnail_not_ready')) {
        links.delete(examId);
        return null;
      }
      throw e;
    }
  }

  return {
    'reports:get': async (args) => {
      const r = await fetchReport(args.exam_id);
      return { report: r ? reportView(r) : null };
    },
    'reports:pdf': async (args) => {
      const examId = args.exam_id;
      let link = links.get(examId);
      if (!link || link.expiresAt - Date.now() < URL_MARGIN_MS) {
        if (!(await fetchReport(examId))) throw new ContractFailure('not_found', 'This exam has no report.');
        link = links.get(examId);
      }
      if (!link || !/^https?:\/\//i.test(link.url))
        throw new ContractFailure('invalid_response', 'The service gave an unusable address for the report.');
      let body: Buffer;
      try {
        const res = await got(link.url, {
          responseType: 'buffer',
          timeout: { request: DOWNLOAD_TIMEOUT_MS },
          retry: { limit: 2 },
          throwHttpErrors: false,
        });
        if (res.statusCode === 403) links.delete(examId);
        if (res.statusCode !== 200)
          throw new ContractFailure(
            'report_download_failed',
            `The report could not be downloaded (HTTP ${res.statusCode}).`,
          );
        body = res.body;
      } catch (e) {
        if (e instanceof ContractFailure) throw e;
        throw new ContractFailure('network_error', 'Cannot reach the service. Check the internet connection.');
      }
      if (body.length > 4 * MAX_REPORT_BYTES || !looksLikePdf(body))
        throw new ContractFailure('report_not_pdf', 'The downloaded report is not a PDF file.');
      return { base64: body.toString('base64') };
    },
    'reports:upload': async (args) => {
      const examId = args.exam_id;
      const pdf = Buffer.from(args.base64, 'base64');
      if (pdf.length > MAX_REPORT_BYTES)
        throw new ContractFailure('report_too_large', 'The report is larger than allowed.', [
          { field: 'file', message: 'too large' },
        ]);
      if (!looksLikePdf(pdf))
        throw new ContractFailure('report_not_pdf', 'This file is not a PDF.', [
          { field: 'file', message: 'not a PDF' },
        ]);
      const filename = [...args.filename]
        .map((c) => (c === '/' || c === '\\' || c.charCodeAt(0) < 0x20 ? '_' : c))
        .join('');
      const r = await ctx.service
        .require()
        .reports.upload(examId, { pdf: new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength), filename });
      links.delete(examId);
      return { report: reportView(r) };
    },
    'reports:sign': async (args) => {
      const s = await ctx.service.require().reports.sign(args.exam_id);
      return {
        signature_id: s.signature_id,
        signed_at: s.signed_at ?? null,
        verification_url: s.verification_url ?? null,
      };
    },
    'reports:delete': async (args) => {
      const examId = args.exam_id;
      await ctx.service.require().reports.remove(examId);
      links.delete(examId);
      return { deleted: true as const };
    },
  };
}
