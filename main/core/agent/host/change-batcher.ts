// Coalesces frequent per-item changes (upload progress of thousands of files) into at most one
// push per interval, carrying only the items that changed, each in its latest state.

export type ChangeBatcherOptions<T> = {
  /** Minimum time between two pushes (250 ms = at most 4 pushes a second). */
  intervalMs: number;
  push: (changed: T[]) => void;
};

/** Keeps the latest value per key and pushes the changed ones together. */
export class ChangeBatcher<T> {
  private readonly pending = new Map<string, T>();
  private timer: NodeJS.Timeout | undefined;
  private lastPush = 0;
  private closed = false;

  constructor(private readonly options: ChangeBatcherOptions<T>) {}

  /** Records the latest state of `key`; it goes out with the next push. */
  mark(key: string, value: T): void {
    if (this.closed) return;
    this.pending.set(key, value);
    if (this.timer) return;
    const wait = Math.max(0, this.lastPush + this.options.intervalMs - Date.now());
    this.timer = setTimeout(() => this.flush(), wait);
    this.timer.unref?.();
  }

  /** Pushes what is pending now (also used on shutdown). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const changed = [...this.pending.values()];
    this.pending.clear();
    this.lastPush = Date.now();
    this.options.push(changed);
  }

  close(): void {
    this.flush();
    this.closed = true;
  }
}
