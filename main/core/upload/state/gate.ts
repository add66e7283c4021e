// A latch transfers wait on while a job is paused.
import { abortReason } from '../../api/http';

export class Gate {
  private waiters: (() => void)[] = [];
  private closed = false;

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    this.closed = true;
  }

  open(): void {
    this.closed = false;
    const w = this.waiters;
    this.waiters = [];
    for (const fn of w) fn();
  }

  /** Resolves at once when open, else when opened; rejects when `signal` aborts. */
  wait(signal?: AbortSignal): Promise<void> {
    if (!this.closed) return Promise.resolve();
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const onAbort = (): void => {
        this.waiters = this.waiters.filter((w) => w !== done);
        reject(abortReason(signal));
      };
      const done = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.waiters.push(done);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
