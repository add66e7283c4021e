// The window's one pdf.js set-up. pdf.js is large, so this module is only ever reached through
// `loadPdfJs()` (a dynamic import): it lands in its own chunk, fetched the first time a PDF is shown
// or checked, never at start-up.
// Its worker is bundled by Vite as one of our own files (the CSP allows scripts from 'self' only),
// and eval is off (the CSP forbids it; pdf.js then interprets fonts instead of compiling them).
import { getDocument, GlobalWorkerOptions } from 'pdfjs-dist';
import type { PDFDocumentProxy, PDFPageProxy, RenderTask } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

/**
 * Opens a PDF from bytes; pdf.js takes its own copy, so `bytes` stays usable. `strict` makes any
 * damage an error (used for reports, which are checked before upload) instead of drawing what it can.
 */
export function openPdf(bytes: Uint8Array, strict: boolean): Promise<PDFDocumentProxy> {
  return getDocument({ data: bytes.slice(), isEvalSupported: false, enableXfa: false, stopAtErrors: strict }).promise;
}

/**
 * Draws one page on a canvas as wide on screen as `cssWidth` says for the page's natural width, sharp
 * on high-density displays (the canvas holds devicePixelRatio times as many pixels).
 */
export function drawPage(
  page: PDFPageProxy,
  canvas: HTMLCanvasElement,
  cssWidth: (naturalWidth: number) => number,
): RenderTask {
  const ratio = window.devicePixelRatio || 1;
  const natural = page.getViewport({ scale: 1 }).width;
  const viewport = page.getViewport({ scale: cssWidth(natural) / natural });
  canvas.width = Math.floor(viewport.width * ratio);
  canvas.height = Math.floor(viewport.height * ratio);
  canvas.style.width = `${Math.floor(viewport.width)}px`;
  return page.render({ canvas, viewport, transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined });
}
