import { Button, Group, Loader, Stack, Text } from '@mantine/core';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromBase64, openPdf } from './pdf';

/** Shows a PDF one page at a time, drawn by pdf.js on a canvas from bytes (nothing is loaded from elsewhere). */
export function PdfView({ base64 }: { base64: string }) {
  const { t } = useTranslation();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [page, setPage] = useState(1);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let opened: PDFDocumentProxy | null = null;
    openPdf(fromBase64(base64)).then(
      (d) => {
        opened = d;
        if (cancelled) void d.destroy();
        else setDoc(d);
      },
      () => !cancelled && setFailed(true),
    );
    return () => {
      cancelled = true;
      if (opened) void opened.destroy();
    };
  }, [base64]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!doc || !canvas) return;
    let task: { cancel: () => void; promise: Promise<void> } | null = null;
    let cancelled = false;
    void doc.getPage(page).then((p) => {
      if (cancelled) return;
      const ratio = window.devicePixelRatio || 1;
      const viewport = p.getViewport({ scale: Math.min(1.5, 880 / p.getViewport({ scale: 1 }).width) });
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      canvas.style.width = `${Math.floor(viewport.width)}px`;
      task = p.render({ canvas, viewport, transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined });
      task.promise.catch(() => undefined);
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, page]);

  if (failed) return <Text c="red.9" size="sm">{t('exams.report.unreadable')}</Text>;
  if (!doc) return <Group gap="xs"><Loader size="sm" /><Text size="sm">{t('exams.report.loadingPdf')}</Text></Group>;
  const pages = doc.numPages;
  return (
    <Stack gap="xs" data-testid="pdf-view" data-pages={pages}>
      <Group gap="sm">
        <Button size="xs" variant="default" onClick={() => setPage((n) => Math.max(1, n - 1))} disabled={page <= 1} data-testid="pdf-prev">{t('exams.report.prev')}</Button>
        <Text size="sm" aria-live="polite" data-testid="pdf-page">{t('exams.report.page', { page, pages })}</Text>
        <Button size="xs" variant="default" onClick={() => setPage((n) => Math.min(pages, n + 1))} disabled={page >= pages} data-testid="pdf-next">{t('exams.report.next')}</Button>
      </Group>
      <canvas ref={canvasRef} className="pdf-canvas" role="img" aria-label={t('exams.report.viewerLabel', { page, pages })} data-testid="pdf-canvas" />
    </Stack>
  );
}
