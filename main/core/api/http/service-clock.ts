// The service's clock as this computer sees it: every answer's HTTP `Date` header, compared with
// the local clock when it arrived. What the service decides by its own clock (when a presigned link
// expires, when an exam was created) is judged by this offset, never by the local clock alone: a
// clinic PC whose clock is days off (a dead CMOS battery) must upload as well as any other.
// The header has one-second resolution and the answer spends time on the wire, so the offset is
// good to a second or two; callers allow for that.

/** How far the local clock may be from the service's before it is said to the user. */
export const CLOCK_SKEW_WARN_MS = 5 * 60_000;

export class ServiceClock {
  private offset: number | null = null;

  constructor(private readonly localNow: () => number = Date.now) {}

  /** Notes an answer's `Date` header (ignored when absent or unreadable). */
  observe(dateHeader: string | undefined): void {
    if (!dateHeader) return;
    const service = Date.parse(dateHeader);
    if (!Number.isFinite(service)) return;
    // The header is truncated to the second: its middle is the best guess.
    this.offset = service + 500 - this.localNow();
  }

  /** Service time minus local time (ms), from the last answer; null before any answer. */
  offsetMs(): number | null {
    return this.offset;
  }

  /** The service's time now, as far as it is known (the local clock before any answer). */
  now(): number {
    return this.localNow() + (this.offset ?? 0);
  }
}
