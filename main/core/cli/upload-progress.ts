// `scanbridge upload`'s progress on stderr: a line per step and notice, and a percentage line that
// redraws itself on a terminal (every 250 ms) or repeats every 2 s when stderr is a file or a pipe.
// Every line is in the terminal's language (upload-words.ts).
import { escapeForTerminal } from '../dicom';
import type { UploadEvent } from '../upload/job';
import type { CompressionTotals, Totals } from '../upload/state';
import type { Language } from '../i18n';
import type { CliIo } from './session/io';
import { durationIn, noticeWords, uploadWords } from './words/upload-words';
import { formatBytes } from '../format-bytes';

/** Renders engine events as human progress lines on stderr. */
export function progressPrinter(
  io: CliIo,
  tty: boolean,
  lang: Language = 'en',
): { onEvent: (e: UploadEvent) => void; done: () => void } {
  const w = uploadWords(lang);
  let lastLine = 0;
  let live = false;
  const clear = (): void => {
    if (live) io.stderr('\r\x1b[K');
    live = false;
  };
  const line = (t: string): void => {
    clear();
    // Notices and retries quote file names, which come from the disk.
    io.stderr(`${escapeForTerminal(t)}\n`);
  };
  const show = (t: Totals, force: boolean): void => {
    const now = Date.now();
    if (!force && now - lastLine < (tty ? 250 : 2000)) return;
    lastLine = now;
    const parts = t.compression ? compressedParts(t, t.compression, lang) : plainParts(t, lang);
    if (t.etaSeconds !== null && t.etaSeconds > 0) parts.push(w.left(durationIn(lang, t.etaSeconds)));
    const text = `  ${parts.join(' · ')}`;
    if (tty) {
      io.stderr(`\r\x1b[K${text}`);
      live = true;
    } else io.stderr(`${text}\n`);
  };
  const onEvent = (e: UploadEvent): void => {
    switch (e.type) {
      case 'status':
        switch (e.status) {
          case 'compressing':
            line(w.compressing);
            break;
          case 'creating':
            line(w.creating);
            break;
          case 'transferring':
            line(w.sending(e.examId ?? ''));
            break;
          case 'paused':
            line(w.paused);
            break;
          case 'confirming':
            show(e.totals, true);
            line(w.finishing);
            break;
          case 'ready':
            line(w.ready(e.examId ?? ''));
            break;
          default:
            break;
        }
        return;
      case 'progress':
        show(e.totals, false);
        return;
      case 'notice':
        line(noticeWords(lang, e));
        return;
      case 'file':
        if (e.progress.state === 'retrying') line(w.retryingFile(e.name, e.progress.attempt, e.progress.reason));
        return;
    }
  };
  return { onEvent, done: clear };
}

function plainParts(t: Totals, lang: Language): string[] {
  const w = uploadWords(lang);
  const pct = percentOf(t.bytesSent, t.bytesTotal);
  const parts = [
    `${pct}%`,
    w.files(t.filesDone, t.filesTotal),
    w.of(formatBytes(t.bytesSent, lang), formatBytes(t.bytesTotal, lang)),
  ];
  if (t.rate > 0) parts.push(w.perSecond(formatBytes(t.rate, lang)));
  return parts;
}

/**
 * "compressing (2.3× smaller)… 45% of 210 MB" / "sending… 40% · 36 MB of 91 MB on the wire (study
 * 210 MB) · still compressing (80% done)".
 */
function compressedParts(t: Totals, c: CompressionTotals, lang: Language): string[] {
  const w = uploadWords(lang);
  const times = c.ratio !== null ? w.smaller(c.ratio) : null;
  if (c.state === 'compressing') {
    const pct = percentOf(c.studyBytesDone, c.studyBytes);
    return [w.compressingShare(times), w.percentOf(pct, formatBytes(c.studyBytes, lang))];
  }
  const pct = percentOf(t.bytesSent, t.bytesTotal);
  const parts = [
    w.sendingShort,
    `${pct}%`,
    w.onTheWire(
      formatBytes(t.bytesSent, lang),
      formatBytes(t.bytesTotal, lang),
      formatBytes(c.studyBytes, lang),
      times,
    ),
  ];
  if (t.rate > 0) parts.push(w.perSecondOnWire(formatBytes(t.rate, lang)));
  // The archive is sent while it is written: how far compressing got.
  if (c.studyBytesDone < c.studyBytes) parts.push(w.stillCompressing(percentOf(c.studyBytesDone, c.studyBytes)));
  return parts;
}

/** Whole percent of `done` in `total` (an empty total is done). */
function percentOf(done: number, total: number): number {
  return total > 0 ? Math.floor((100 * done) / total) : 100;
}
