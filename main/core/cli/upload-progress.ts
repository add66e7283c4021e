// `scanbridge upload`'s progress on stderr: a line per step and notice, and a percentage line that
// redraws itself on a terminal (every 250 ms) or repeats every 2 s when stderr is a file or a pipe.
import { escapeForTerminal } from '../dicom';
import type { UploadEvent } from '../upload/engine';
import type { CompressionTotals, Totals } from '../upload/progress';
import type { CliIo } from './io';
import { formatBytes } from '../upload/plan';

/** Renders engine events as human progress lines on stderr. */
export function progressPrinter(io: CliIo, tty: boolean): { onEvent: (e: UploadEvent) => void; done: () => void } {
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
    const parts = t.compression ? compressedParts(t, t.compression) : plainParts(t);
    if (t.etaSeconds !== null && t.etaSeconds > 0) parts.push(`${formatDuration(t.etaSeconds)} left`);
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
            line('Compressing the study (lossless)…');
            break;
          case 'creating':
            line('Creating the exam…');
            break;
          case 'transferring':
            line(`Sending to exam ${e.examId ?? ''}…`);
            break;
          case 'paused':
            line('Paused.');
            break;
          case 'confirming':
            show(e.totals, true);
            line('Finishing the exam…');
            break;
          case 'ready':
            line(`Exam ${e.examId ?? ''} is ready.`);
            break;
          default:
            break;
        }
        return;
      case 'progress':
        show(e.totals, false);
        return;
      case 'notice':
        line(e.message);
        return;
      case 'file':
        if (e.progress.state === 'retrying')
          line(`  retrying ${e.name} (attempt ${e.progress.attempt}): ${e.progress.reason}`);
        return;
    }
  };
  return { onEvent, done: clear };
}

function plainParts(t: Totals): string[] {
  const pct = percentOf(t.bytesSent, t.bytesTotal);
  const parts = [
    `${pct}%`,
    `${t.filesDone}/${t.filesTotal} files`,
    `${formatBytes(t.bytesSent)} of ${formatBytes(t.bytesTotal)}`,
  ];
  if (t.rate > 0) parts.push(`${formatBytes(t.rate)}/s`);
  return parts;
}

/**
 * "compressing (2.3× smaller)… 45% of 210 MB" / "sending… 40% · 36 MB of 91 MB on the wire (study
 * 210 MB) · still compressing (80% done)".
 */
function compressedParts(t: Totals, c: CompressionTotals): string[] {
  const times = c.ratio !== null ? `${c.ratio.toFixed(1)}× smaller` : null;
  if (c.state === 'compressing') {
    const pct = percentOf(c.studyBytesDone, c.studyBytes);
    return [`compressing${times ? ` (${times})` : ''}…`, `${pct}% of ${formatBytes(c.studyBytes)}`];
  }
  const pct = percentOf(t.bytesSent, t.bytesTotal);
  const parts = [
    'sending…',
    `${pct}%`,
    `${formatBytes(t.bytesSent)} of ${formatBytes(t.bytesTotal)} on the wire (study ${formatBytes(c.studyBytes)}${times ? `, ${times}` : ''})`,
  ];
  if (t.rate > 0) parts.push(`${formatBytes(t.rate)}/s on the wire`);
  // The archive is sent while it is written: how far compressing got.
  if (c.studyBytesDone < c.studyBytes)
    parts.push(`still compressing (${percentOf(c.studyBytesDone, c.studyBytes)}% done)`);
  return parts;
}

/** Whole percent of `done` in `total` (an empty total is done). */
function percentOf(done: number, total: number): number {
  return total > 0 ? Math.floor((100 * done) / total) : 100;
}

function formatDuration(s: number): string {
  if (s < 90) return `${s} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}
