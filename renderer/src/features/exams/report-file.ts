// Checks on a report PDF before it is uploaded. pdf.js (to see that it opens) is loaded only when a
// file is checked.
import { loadPdfJs } from '../../components/pdf/load-pdf';

/** Reports larger than this are refused before upload (main checks the same limit). */
export const MAX_REPORT_BYTES = 20 * 1024 * 1024;

export type PdfProblem = 'empty' | 'tooLarge' | 'notPdf' | 'unreadable';

/** True when the bytes start like a PDF (a few junk bytes before `%PDF-` are tolerated, as readers do). */
export function hasPdfMagic(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  return head.includes('%PDF-');
}

/** Checks a report file before it is uploaded: size, PDF signature, and that pdf.js can open it. */
export async function checkReportFile(
  file: File,
): Promise<{ ok: true; bytes: Uint8Array; pages: number } | { ok: false; problem: PdfProblem }> {
  if (file.size === 0) return { ok: false, problem: 'empty' };
  if (file.size > MAX_REPORT_BYTES) return { ok: false, problem: 'tooLarge' };
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!hasPdfMagic(bytes)) return { ok: false, problem: 'notPdf' };
  try {
    const { openPdf } = await loadPdfJs();
    const doc = await openPdf(bytes, true);
    const pages = doc.numPages;
    await doc.destroy();
    if (pages < 1) return { ok: false, problem: 'unreadable' };
    return { ok: true, bytes, pages };
  } catch {
    return { ok: false, problem: 'unreadable' };
  }
}
