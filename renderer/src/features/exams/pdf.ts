// pdf.js with its worker bundled by Vite (served from our own origin, so the CSP stays `self`), and
// without eval (the CSP forbids it; pdf.js then interprets fonts instead of compiling them).
import { getDocument, GlobalWorkerOptions } from 'pdfjs-dist';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Reports larger than this are refused before upload (main checks the same limit). */
export const MAX_REPORT_BYTES = 20 * 1024 * 1024;

/** Opens a PDF from bytes; pdf.js takes its own copy, so `bytes` stays usable. */
export function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  return getDocument({ data: bytes.slice(), isEvalSupported: false, enableXfa: false, stopAtErrors: true }).promise;
}

export type PdfProblem = 'empty' | 'tooLarge' | 'notPdf' | 'unreadable';

/** True when the bytes start like a PDF (a few junk bytes before `%PDF-` are tolerated, as readers do). */
export function hasPdfMagic(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  return head.includes('%PDF-');
}

/** Checks a report file before it is uploaded: size, PDF signature, and that pdf.js can open it. */
export async function checkReportFile(file: File): Promise<{ ok: true; bytes: Uint8Array; pages: number } | { ok: false; problem: PdfProblem }> {
  if (file.size === 0) return { ok: false, problem: 'empty' };
  if (file.size > MAX_REPORT_BYTES) return { ok: false, problem: 'tooLarge' };
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!hasPdfMagic(bytes)) return { ok: false, problem: 'notPdf' };
  try {
    const doc = await openPdf(bytes);
    const pages = doc.numPages;
    await doc.destroy();
    if (pages < 1) return { ok: false, problem: 'unreadable' };
    return { ok: true, bytes, pages };
  } catch {
    return { ok: false, problem: 'unreadable' };
  }
}

/** Bytes as base64, in chunks (a spread of a large array would overflow the call stack). */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

export function fromBase64(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
