import { Alert, Box, Loader } from '@mantine/core';
import { getDocument, GlobalWorkerOptions } from 'pdfjs-dist';
import type { PDFDocumentProxy } from 'pdfjs-dist';
// The worker is bundled by Vite as one of our own files: the CSP allows scripts from 'self' only.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

GlobalWorkerOptions.workerSrc = workerUrl;

export function bytesOfBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

type Props = {
  /** The PDF's bytes, as main sent them (the window loads nothing remote). */
  pdfBase64: string;
  /** Accessible name of the scrolling document region. */
  label: string;
  height: number | string;
  /** Called once the reader has scrolled to the end (at once when it all fits). */
  onReadToEnd?: () => void;
};

/** A PDF drawn page by page with pdf.js into a scrolling, keyboard-focusable box. */
export function PdfView({ pdfBase64, label, height, onReadToEnd }: Props) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const pagesRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const ended = useRef(false);
  const onEnd = useRef(onReadToEnd);
  onEnd.current = onReadToEnd;

  const checkEnd = (): void => {
    const el = box.current;
    if (!el || ended.current) return;
    if (el.scrollTop + el.clientHeight >= el.scrollHeight - 8) {
      ended.current = true;
      onEnd.current?.();
    }
  };

  useEffect(() => {
    let cancelled = false;
    let doc: PDFDocumentProxy | null = null;
    ended.current = false;
    setState('loading');
    const task = getDocument({ data: bytesOfBase64(pdfBase64), isEvalSupported: false, useSystemFonts: true });
    (async () => {
      doc = await task.promise;
      const host = pagesRef.current;
      if (cancelled || !host) return;
      host.replaceChildren();
      const width = Math.max(320, (box.current?.clientWidth ?? 800) - 24);
      const dpr = window.devicePixelRatio || 1;
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n);
        if (cancelled) return;
        const base = page.getViewport({ scale: 1 });
        const viewport = page.getViewport({ scale: (width / base.width) * dpr });
        const canvas = document.createElement('canvas');
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        // Fits a narrower box too (a tablet turned to portrait) without drawing the page again.
        canvas.style.width = `${Math.floor(viewport.width / dpr)}px`;
        canvas.style.maxWidth = '100%';
        canvas.style.height = 'auto';
        canvas.style.display = 'block';
        canvas.style.margin = '0 auto 12px';
        canvas.style.boxShadow = '0 1px 4px rgba(0,0,0,.25)';
        canvas.setAttribute('role', 'img');
        canvas.setAttribute('aria-label', t('pdf.page', { n, total: doc.numPages }));
        host.appendChild(canvas);
        await page.render({ canvas, viewport }).promise;
      }
      if (!cancelled) {
        setState('ready');
        requestAnimationFrame(checkEnd);
      }
    })().catch(() => {
      if (!cancelled) setState('failed');
    });
    return () => {
      cancelled = true;
      void task.destroy();
      void doc?.destroy();
    };
    // Drawn again only for new bytes (checkEnd and t read refs and the current language).
  }, [pdfBase64]);

  return (
    <Box
      ref={box}
      role="region"
      aria-label={label}
      tabIndex={0}
      onScroll={checkEnd}
      data-testid="pdf-view"
      data-state={state}
      style={{ height, overflowY: 'auto', background: 'var(--mantine-color-gray-1)', padding: 12, borderRadius: 8 }}
    >
      {state === 'loading' && <Loader aria-label={t('common.loading')} />}
      {state === 'failed' && <Alert color="red" role="alert">{t('pdf.failed')}</Alert>}
      <div ref={pagesRef} />
    </Box>
  );
}
