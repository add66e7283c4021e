/**
 * Counts pushes per cache key. A read that overlaps a push may answer older data than the push
 * carried; main pushes every change, so the pushed state wins then.
 */
export class PushClock {
  private readonly counts = new Map<string, number>();

  /** Records a push for `key`. */
  mark(key: readonly string[]): void {
    const k = key.join('/');
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
  }

  /** Runs `read`; answers `cached()` instead when a push for `key` arrived while it ran (and there is one). */
  async read<T>(key: readonly string[], read: () => Promise<T>, cached: () => T | undefined): Promise<T> {
    const k = key.join('/');
    const before = this.counts.get(k) ?? 0;
    const fresh = await read();
    if ((this.counts.get(k) ?? 0) === before) return fresh;
    return cached() ?? fresh;
  }
}
