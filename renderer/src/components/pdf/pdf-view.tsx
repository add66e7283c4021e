import { Alert, Box, Button, Group, Stack, Text } from '@mantine/core';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { fromBase64 } from './base64';
import { loadPdfJs } from './load-pdf';
import './pdf-view.css';
import { Loading } from '../loading';

type Props = {
  /** The PDF's bytes, as main sent them (the window loads nothing remote). */
  base64: string;
  /** Accessible name of the document region. */
  label: string;
  /**
   * `scroll`: every page, one below the other, in a scrolling box of `height` (a document to read
   * through, with `onReadToEnd` called once the reader reached its end, at once when it all fits).
   * `paged`: one page at a time with previous/next buttons (a report to look at); such a PDF must open
   * without any damage.
   */
  layout: { kind: 'scroll'; height: number | string; onReadToEnd?: () => void } | { kind: 'paged' };
};

type Loaded = { state: 'loading' | 'failed'; doc?: undefined } | { state: 'ready'; doc: PDFDocumentProxy };

/** Opens the PDF (loading pdf.js the first time), and closes it when the bytes change or the view goes. */
function usePdfDocument(base64: string, strict: boolean): Loaded {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  useEffect(() => {
    let cancelled = false;
    let opened: PDFDocumentProxy | null = null;
    setLoaded({ state: 'loading' });
    loadPdfJs()
      .then(({ openPdf }) => openPdf(fromBase64(base64), strict))
      .then(
        (doc) => {
          opened = doc;
          if (cancelled) void doc.destroy();
          else setLoaded({ state: 'ready', doc });
        },
        () => !cancelled && setLoaded({ state: 'failed' }),
      );
    return () => {
      cancelled = true;
      void opened?.destroy();
    };
  }, [base64, strict]);
  return loaded;
}

/** Every page drawn one below the other; `onReadToEnd` once the box was scrolled to its end. */
function ScrollPages({
  doc,
  box,
  onReadToEnd,
  onDrawn,
}: {
  doc: PDFDocumentProxy;
  box: RefObject<HTMLDivElement | null>;
  onReadToEnd: (() => void) | undefined;
  /** Called once every page is drawn. */
  onDrawn: (doc: PDFDocumentProxy) => void;
}) {
  const { t } = useTranslation();
  const pagesRef = useRef<HTMLDivElement>(null);
  const ended = useRef(false);
  const onEnd = useRef(onReadToEnd);
  onEnd.current = onReadToEnd;
  const onDrawnRef = useRef(onDrawn);
  onDrawnRef.current = onDrawn;

  useEffect(() => {
    const el = box.current;
    const checkEnd = (): void => {
      if (!el || ended.current) return;
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 8) {
        ended.current = true;
        onEnd.current?.();
      }
    };
    let cancelled = false;
    ended.current = false;
    el?.addEventListener('scroll', checkEnd);
    (async () => {
      const { drawPage } = await loadPdfJs();
      const host = pagesRef.current;
      if (cancelled || !host) return;
      host.replaceChildren();
      const width = Math.max(320, (el?.clientWidth ?? 800) - 24);
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n);
        if (cancelled) return;
        const canvas = document.createElement('canvas');
        canvas.className = 'pdf-scroll-page';
        canvas.setAttribute('role', 'img');
        canvas.setAttribute('aria-label', t('pdf.page', { n, total: doc.numPages }));
        host.appendChild(canvas);
        await drawPage(page, canvas, () => width).promise;
      }
      if (cancelled) return;
      onDrawnRef.current(doc);
      requestAnimationFrame(checkEnd);
    })().catch(() => undefined);
    return () => {
      cancelled = true;
      el?.removeEventListener('scroll', checkEnd);
    };
    // Drawn again only for a new document; the pages' names follow the language below.
  }, [doc, box]);

  // A language switch renames the drawn pages instead of drawing them again.
  useEffect(() => {
    pagesRef.current?.querySelectorAll('canvas').forEach((canvas, i) => {
      canvas.setAttribute('aria-label', t('pdf.page', { n: i + 1, total: doc.numPages }));
    });
  }, [t, doc]);

  return <div ref={pagesRef} />;
}

/** One page at a time, with previous/next buttons. */
function PagedPages({ doc }: { doc: PDFDocumentProxy }) {
  const { t } = useTranslation();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [page, setPage] = useState(1);
  const pages = doc.numPages;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let task: { cancel: () => void; promise: Promise<void> } | null = null;
    let cancelled = false;
    void Promise.all([loadPdfJs(), doc.getPage(page)]).then(([{ drawPage }, p]) => {
      if (cancelled) return;
      task = drawPage(p, canvas, (natural) => Math.min(1.5 * natural, 880));
      task.promise.catch(() => undefined);
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, page]);

  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Button
          size="xs"
          variant="default"
          onClick={() => setPage((n) => Math.max(1, n - 1))}
          disabled={page <= 1}
          data-testid="pdf-prev"
        >
          {t('pdf.prev')}
        </Button>
        <Text size="sm" aria-live="polite" data-testid="pdf-page">
          {t('pdf.page', { n: page, total: pages })}
        </Text>
        <Button
          size="xs"
          variant="default"
          onClick={() => setPage((n) => Math.min(pages, n + 1))}
          disabled={page >= pages}
          data-testid="pdf-next"
        >
          {t('pdf.next')}
        </Button>
      </Group>
      <canvas
        ref={canvasRef}
        className="pdf-canvas"
        role="img"
        aria-label={t('pdf.page', { n: page, total: pages })}
        data-testid="pdf-canvas"
      />
    </Stack>
  );
}

/**
 * The window's one PDF viewer: pages drawn by pdf.js on canvases from bytes. pdf.js itself is fetched
 * the first time a PDF is shown, so screens without one never load it.
 */
export function PdfView({ base64, label, layout }: Props) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const loaded = usePdfDocument(base64, layout.kind === 'paged');
  const [drawn, setDrawn] = useState<PDFDocumentProxy | null>(null);
  const state = loaded.state === 'ready' && layout.kind === 'scroll' && drawn !== loaded.doc ? 'loading' : loaded.state;
  const scroll = layout.kind === 'scroll';
  return (
    <Box
      ref={box}
      role="region"
      aria-label={label}
      tabIndex={scroll ? 0 : undefined}
      data-testid="pdf-view"
      data-state={state}
      data-pages={loaded.doc?.numPages}
      className={scroll ? 'pdf-scroll' : 'pdf-paged'}
      style={scroll ? { height: layout.height } : undefined}
    >
      {state === 'loading' && <Loading size="sm" />}
      {state === 'failed' && (
        <Alert color="red" role="alert">
          {t('pdf.failed')}
        </Alert>
      )}
      {loaded.doc && scroll && (
        <ScrollPages doc={loaded.doc} box={box} onReadToEnd={layout.onReadToEnd} onDrawn={setDrawn} />
      )}
      {loaded.doc && !scroll && <PagedPages doc={loaded.doc} />}
    </Box>
  );
}
