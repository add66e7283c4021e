// Files mode: one presigned PUT per file, `concurrency` at a time. A pause aborts the PUTs in
// flight (a presigned PUT cannot continue where it stopped) and puts those files back in front of
// the queue; each file counts as stored only once it is re-stat'ed unchanged after its PUT.
import { checkFileSync, childController } from './file-checks';
import { openFileRange } from '../transfer/file-source';
import { putWithRetry, type TransferAgents } from '../transfer/transfer';
import type { TransferContext } from './transfer-context';

/** Sends every file of the plan not stored yet. */
export async function sendFiles(ctx: TransferContext, signal: AbortSignal, agents: TransferAgents): Promise<void> {
  const { plan, exam, done } = ctx.state;
  const urls = exam?.urls;
  if (!exam || !urls) throw new Error('no exam to upload to');
  const queue: number[] = [];
  for (let i = 0; i < done.length; i++) if (done[i] === 0) queue.push(i);
  if (queue.length === 0) return;
  // Aborted by the run's signal, or by the first worker that fails.
  const scope = childController(signal);
  const scopeSignal = scope.controller.signal;
  let firstError: unknown = null;
  const fail = (err: unknown): void => {
    firstError ??= err;
    scope.controller.abort(err);
  };

  let epoch = childController(scopeSignal);
  ctx.inflight.add(epoch.controller);
  const worker = async (): Promise<void> => {
    for (;;) {
      await ctx.waitIfPaused(scopeSignal);
      const i = queue.shift();
      if (i === undefined) return;
      const f = plan.files[i];
      const url = urls[i];
      if (!f || !url) continue;
      if (ctx.gate.isClosed) {
        // Paused since the gate let this worker through.
        queue.unshift(i);
        continue;
      }
      // Transfers share one controller per pause epoch: pause() aborts the current one (it is
      // in `inflight`); the next transfer after resume() starts a fresh one.
      if (epoch.controller.signal.aborted) {
        epoch.dispose();
        ctx.inflight.delete(epoch.controller);
        epoch = childController(scopeSignal);
        ctx.inflight.add(epoch.controller);
      }
      const own = epoch.controller;
      ctx.emit({ type: 'file', index: i, name: f.name, progress: { state: 'sending', attempt: 1 } });
      try {
        await putWithRetry(
          url,
          { size: f.size, open: () => openFileRange(f.path, f.size) },
          ctx.putOptions(agents, own.signal, i, f.name),
        );
      } catch (err) {
        if (own.signal.aborted && !scopeSignal.aborted) {
          // Paused: the file goes back to the front of the queue.
          queue.unshift(i);
          ctx.emit({ type: 'file', index: i, name: f.name, progress: { state: 'requeued' } });
          continue;
        }
        throw await ctx.transferFailure(err, [i]);
      }
      // The file counts as stored only if it still is what was planned: one modified before or
      // while it was read went up stale or half old, half new. (A file deleted or cut short fails
      // its read instead.) A synchronous stat: a few microseconds on a local disk, where an async
      // one costs a thread-pool round trip per file, measurable on a busy machine.
      checkFileSync(f);
      done[i] = 1;
      ctx.state.doneCount++;
      ctx.journal.markDone(i);
      ctx.tracker.onTransferDone(f.size, 1);
      ctx.emit({ type: 'file', index: i, name: f.name, progress: { state: 'done' } });
    }
  };
  const workers = Array.from({ length: Math.min(ctx.concurrency, queue.length) }, () => worker().catch(fail));
  await Promise.all(workers);
  ctx.inflight.delete(epoch.controller);
  epoch.dispose();
  scope.dispose();
  ctx.journal.flushDone('background');
  if (firstError !== null) throw firstError;
}
