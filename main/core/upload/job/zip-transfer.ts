// Zip mode: the whole study as one ZIP in one PUT: uncompressed and built on the fly, or the
// compressed archive (archive.ts), read as it is written or once complete. A retry, or a resume
// after a pause, sends it again from the first byte; the files are checked before and after, so a
// ZIP of a changed export is never confirmed.
import { childController } from './file-checks';
import { GrowingFileReader, openFileRange } from '../transfer/file-source';
import { zipWireSize } from '../state/job-records';
import { type PutBody, putWithRetry, type TransferAgents } from '../transfer/transfer';
import type { TransferContext } from './transfer-context';
import { createZipStream } from '../transfer/zip';

/** Sends the plan's files as one ZIP. */
export async function sendZip(ctx: TransferContext, signal: AbortSignal, agents: TransferAgents): Promise<void> {
  const { plan, exam } = ctx.state;
  if (!exam?.zipUrl) throw new Error('no ZIP upload link');
  const all = plan.files.map((_, i) => i);
  // Compressed: the archive, read as it is written or complete; else the ZIP built on the fly.
  const size = zipWireSize(ctx.state);
  const body = zipBody(ctx, size);
  for (;;) {
    await ctx.waitIfPaused(signal);
    await ctx.checkFiles(all);
    if (ctx.gate.isClosed) continue;
    const link = childController(signal);
    const own = link.controller;
    const s = own.signal;
    ctx.inflight.add(own);
    try {
      await putWithRetry(exam.zipUrl, body, ctx.putOptions(agents, s, -1, 'archive.zip'));
    } catch (err) {
      if (own.signal.aborted && !signal.aborted) continue;
      throw await ctx.transferFailure(err, all);
    } finally {
      ctx.inflight.delete(own);
      link.dispose();
    }
    await ctx.checkFiles(all);
    ctx.tracker.onTransferDone(size, 0);
    return;
  }
}

/** What the PUT sends: the archive as it is written, the complete archive, or a ZIP built on the fly. */
function zipBody(ctx: TransferContext, size: number): PutBody {
  const { growing } = ctx;
  if (growing) {
    let reader: GrowingFileReader | null = null;
    return {
      size,
      open: () => (reader = new GrowingFileReader(growing, size)),
      held: () => reader?.held === true,
    };
  }
  const path = ctx.archivePath;
  if (path) return { size, open: () => openFileRange(path, size) };
  return { size, open: () => createZipStream(ctx.state.plan.files) };
}
