// Printing a PDF (the patient's sheet) through the system's print dialog: the file is shown by
// Chromium's built-in PDF viewer in a hidden window (secureWindow with `pdfViewer`: sandboxed,
// isolated, in a print session that loads nothing but that file and the viewer's own pages), and
// webContents.print() opens the dialog (silent: false). Two pitfalls from Electron's tracker:
// - `did-finish-load` comes before the viewer has the document: printing then gives blank pages
//   (electron#30947). The viewer says it is ready with the internal `-pdf-ready-to-print` event
//   (electron#43436, what Electron's own tests wait on), so printing waits for it, within a deadline.
// - Printing from a PDF printed a blank page before Electron 32 (fixed by electron#43309).
// The window is destroyed and the file removed once the dialog is done (printed or cancelled).
import { rm } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { session } from 'electron';
import type { BrowserWindow, WebContents } from 'electron';
import { errorCode, type Logger } from '../core/log';
import { PRINT_PARTITION } from './policy';
import { hardenPrintSession, secureWindow } from './security';

/** Longest wait for the viewer to have the document (a one-page sheet takes well under a second). */
const READY_DEADLINE_MS = 30_000;

export type PdfPrinter = {
  /**
   * Shows the system print dialog for the PDF at `path`; true once the dialog is up. The file is
   * removed afterwards, also when it could not be shown (false: the caller offers it otherwise).
   */
  print(path: string): Promise<boolean>;
};

/** Resolves when the viewer in `contents` is ready to print; rejects if the page fails, goes or takes too long. */
function viewerReady(contents: WebContents, deadlineMs: number): Promise<void> {
  // WebContents is an EventEmitter; the viewer's event is internal, so it is not in Electron's typed list.
  const events: NodeJS.EventEmitter = contents;
  return new Promise((resolve, reject) => {
    const done = (error: Error | null): void => {
      clearTimeout(timer);
      events.removeListener('-pdf-ready-to-print', onReady);
      contents.removeListener('did-fail-load', onFail);
      contents.removeListener('render-process-gone', onGone);
      contents.removeListener('destroyed', onGone);
      if (error) reject(error);
      else resolve();
    };
    const onReady = (): void => done(null);
    const onFail = (): void => done(new Error('the sheet did not load'));
    const onGone = (): void => done(new Error('the print window went away'));
    const timer = setTimeout(() => done(new Error('the PDF viewer was not ready in time')), deadlineMs);
    events.once('-pdf-ready-to-print', onReady);
    contents.once('did-fail-load', onFail);
    contents.once('render-process-gone', onGone);
    contents.once('destroyed', onGone);
  });
}

/** The desktop's printer of PDF files; `log` gets why a sheet could not be shown (never its content). */
export function createPdfPrinter(log: Logger, deadlineMs = READY_DEADLINE_MS): PdfPrinter {
  /** The file URLs being printed: the only files the print session lets through. */
  const sheets = new Set<string>();
  let hardened = false;
  return {
    async print(path) {
      if (!hardened) {
        hardenPrintSession(session.fromPartition(PRINT_PARTITION), sheets);
        hardened = true;
      }
      const url = pathToFileURL(path).href;
      sheets.add(url);
      let win: BrowserWindow | null = null;
      const finish = async (): Promise<void> => {
        sheets.delete(url);
        if (win && !win.isDestroyed()) win.destroy();
        await rm(path, { force: true });
      };
      try {
        win = secureWindow({ show: false, width: 794, height: 1123, title: 'ScanBridge', pdfViewer: true });
        // Listening before loading: the viewer can be ready before loadURL's promise settles.
        const ready = viewerReady(win.webContents, deadlineMs);
        await win.loadURL(url);
        await ready;
        win.webContents.print({ silent: false, printBackground: true }, () => void finish());
        return true;
      } catch (e) {
        log.warn('print: the sheet could not be shown for printing', { code: errorCode(e) });
        await finish();
        return false;
      }
    },
  };
}
