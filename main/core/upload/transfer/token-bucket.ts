// One bandwidth limit shared by every concurrent transfer of a job (or of the whole app).
import { sleep } from '../../api/http';

/**
 * A token bucket in "theoretical arrival time" form: each `take(n)` reserves n / rate seconds of
 * the link in FIFO order, so parallel transfers share the limit fairly and the long-run rate never
 * exceeds it. `burstSeconds` of unused time can be spent at once.
 */
export class TokenBucket {
  private tat = 0;

  constructor(
    private rate: number | null,
    private readonly burstSeconds = 0.05,
    private readonly now: () => number = () => performance.now() / 1000,
  ) {}

  /** Bytes per second, or null for no limit. */
  get bytesPerSecond(): number | null {
    return this.rate;
  }

  /** Changes the limit; it applies to the next chunk of every transfer. */
  setRate(rate: number | null): void {
    this.rate = rate !== null && rate > 0 ? rate : null;
    this.tat = this.now();
  }

  /** Waits until `bytes` may be sent. */
  take(bytes: number, signal?: AbortSignal): Promise<void> {
    if (this.rate === null) return Promise.resolve();
    const now = this.now();
    this.tat = Math.max(this.tat, now - this.burstSeconds) + bytes / this.rate;
    const waitMs = (this.tat - this.burstSeconds - now) * 1000;
    if (waitMs <= 0) return Promise.resolve();
    return sleep(waitMs, signal);
  }
}
