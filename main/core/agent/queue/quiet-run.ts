// When a running upload stops holding the queue's line because it moves nothing. The queue sends
// one study at a time so that each finishes as soon as it can; a run whose storage requests hang
// (held open, no byte taken, no error) would otherwise keep that turn until its transfers time out
// and retry, and every other study waits behind it. A run is judged by what it puts on the
// network: compressing, creating the exam or waiting for storage's answer move no bytes, and
// another study may use the idle connection meanwhile.
import type { UploadJobView } from '../../../../preload/contract';

/** No byte sent and no file finished for this long: the run no longer holds the line. */
export const DEFAULT_QUIET_MS = 5_000;

/**
 * Watches a run: calls `quiet` once when `view()` shows no headway for `quietMs` while `counts()`
 * (not paused by staff, say). Headway is a file finished or bytes sent past the most the run had
 * sent: an attempt that failed and sends the same bytes again makes none. Returns the function that
 * stops watching.
 */
export function watchQuietRun(
  view: () => UploadJobView,
  counts: () => boolean,
  quiet: () => void,
  quietMs: number = DEFAULT_QUIET_MS,
): () => void {
  let most = view().bytes_sent;
  let files = view().files_done;
  let since = Date.now();
  const timer = setInterval(
    () => {
      const v = view();
      if (v.bytes_sent > most || v.files_done !== files || !counts()) {
        most = Math.max(most, v.bytes_sent);
        files = v.files_done;
        since = Date.now();
        return;
      }
      if (Date.now() - since < quietMs) return;
      clearInterval(timer);
      quiet();
    },
    Math.max(50, Math.min(1_000, quietMs / 4)),
  );
  timer.unref?.();
  return () => clearInterval(timer);
}
