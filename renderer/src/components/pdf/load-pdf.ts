// The only way into pdf.js: a dynamic import, so that the main bundle never carries it.
import type * as PdfDocument from './pdf-document';

export type PdfJs = typeof PdfDocument;

export function loadPdfJs(): Promise<PdfJs> {
  return import('./pdf-document');
}
