/**
 * The emulator's service clock. Service time runs with real time plus an offset that the control
 * API can push forward (`POST /clock`). Schedules of the service (webhook retries, rate window,
 * thumbnail delay) are multiplied by `timeScale` when they are set; tasks that fall due — by the
 * passing of real time or by an advance — run in due order.
 */
type Task = { due: number; seq: number; run: () => Promise<void> | void; name: string };

export class Clock {
  private offset = 0;
  private tasks: Task[] = [];
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    readonly timeScale: number,
    private readonly onTaskError: (name: string, err: unknown) => void,
  ) {}

  /** How far `POST /clock` has pushed service time ahead of real time, in ms (persisted by the server). */
  get offsetMs(): number {
    return this.offset;
  }

  /** Restores a persisted offset at start-up, so service time never runs backwards across a restart. */
  restoreOffset(ms: number): void {
    this.offset = Math.max(this.offset, ms);
  }

  /** Current service time in ms since the epoch. */
  now(): number {
    return Date.now() + this.offset;
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  /** A service-schedule duration (spec seconds) in clock ms, after time scaling. */
  scaled(seconds: number): number {
    return seconds * 1000 * this.timeScale;
  }

  /** Runs `run` when the clock reaches `due` (ms). */
  at(due: number, name: string, run: () => Promise<void> | void): void {
    if (this.closed) return;
    this.tasks.push({ due, seq: this.seq++, run, name });
    this.tasks.sort((a, b) => a.due - b.due || a.seq - b.seq);
    this.arm();
  }

  /** Runs `run` after a spec duration in seconds (time-scaled). */
  after(seconds: number, name: string, run: () => Promise<void> | void): void {
    this.at(this.now() + this.scaled(seconds), name, run);
  }

  /** Moves service time forward and carries out everything that falls due before resolving. */
  async advance(seconds: number): Promise<void> {
    this.offset += seconds * 1000;
    await this.drain();
  }

  /** Waits for every task that is due now (and those they schedule as due) to finish. */
  async drain(): Promise<void> {
    this.running = this.running.then(() => this.runDue());
    await this.running;
    this.arm();
  }

  private async runDue(): Promise<void> {
    for (;;) {
      const next = this.tasks[0];
      if (!next || next.due > this.now()) return;
      this.tasks.shift();
      try {
        await next.run();
      } catch (err) {
        this.onTaskError(next.name, err);
      }
    }
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const next = this.tasks[0];
    if (!next || this.closed) return;
    const delay = Math.max(0, Math.min(next.due - this.now(), 2 ** 31 - 1));
    this.timer = setTimeout(() => void this.drain(), delay);
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.tasks = [];
  }
}
