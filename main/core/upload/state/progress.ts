// Totals of a running job: bytes, files, rate (exponentially weighted) and time left.

export type Totals = {
  bytesSent: number;
  bytesTotal: number;
  filesDone: number;
  filesTotal: number;
  /** Bytes per second, smoothed over a few seconds; 0 before anything moved. */
  rate: number;
  /** null while the rate is unknown. */
  etaSeconds: number | null;
  /** Compressed zip mode only: what compressing did (bytesSent/bytesTotal then count the archive). */
  compression?: CompressionTotals;
};

export type CompressionTotals = {
  state: 'compressing' | 'sending';
  /** The study's own size. */
  studyBytes: number;
  /** Study bytes deflated so far (all of them once sending). */
  studyBytesDone: number;
  /** How many times smaller the study got so far (study bytes / archive bytes); null before any. */
  ratio: number | null;
};

/** Rate smoothing time constant: follows real changes in a few seconds, ignores per-chunk jitter. */
const RATE_TAU_SECONDS = 2;

export class ProgressTracker {
  private committed = 0;
  private inflight = 0;
  private filesDone = 0;
  /** Every byte handed to the network since the tracker was made (every run of the job, retries included). */
  wireBytes = 0;
  private rate = 0;
  private lastSample: { at: number; wire: number } | null = null;
  private dirty = true;
  private compression: CompressionTotals | undefined;
  private etaHint: number | null = null;
  private linkHint: number | null = null;

  constructor(
    private bytesTotal: number,
    private filesTotal: number,
  ) {}

  /** Starts over (a new exam, or the done set changed) from what is already stored. */
  reset(bytesTotal: number, filesTotal: number, committedBytes: number, filesDone: number): void {
    this.bytesTotal = bytesTotal;
    this.filesTotal = filesTotal;
    this.committed = committedBytes;
    this.inflight = 0;
    this.filesDone = filesDone;
    this.dirty = true;
  }

  /**
   * Compressed zip mode: what compressing did. While compressing, `etaSeconds` is the time left
   * estimated from the deflate rate and the measured link rate; while sending, `linkRate` (the
   * measured link rate) gives the time left until the transfer has a rate of its own.
   */
  setCompression(c: CompressionTotals | undefined, etaSeconds: number | null, linkRate: number | null = null): void {
    this.compression = c;
    this.etaHint = etaSeconds;
    this.linkHint = linkRate;
    this.dirty = true;
  }

  /** Bytes handed to the connection by an in-flight transfer (negative when an attempt is rolled back). */
  onBytes(delta: number): void {
    this.inflight += delta;
    if (delta > 0) this.wireBytes += delta;
    this.dirty = true;
  }

  /** A transfer finished: its bytes move from in flight to stored. */
  onTransferDone(bytes: number, files: number): void {
    this.inflight -= bytes;
    this.committed += bytes;
    this.filesDone += files;
    this.dirty = true;
  }

  /** Updates the smoothed rate (call on a timer). */
  sample(nowMs: number): void {
    if (!this.lastSample) {
      this.lastSample = { at: nowMs, wire: this.wireBytes };
      return;
    }
    const dt = (nowMs - this.lastSample.at) / 1000;
    if (dt <= 0) return;
    const instant = (this.wireBytes - this.lastSample.wire) / dt;
    const alpha = this.rate === 0 ? 1 : 1 - Math.exp(-dt / RATE_TAU_SECONDS);
    this.rate += alpha * (instant - this.rate);
    this.lastSample = { at: nowMs, wire: this.wireBytes };
    this.dirty = true;
  }

  /** True once, after anything changed since the last call. */
  takeDirty(): boolean {
    const d = this.dirty;
    this.dirty = false;
    return d;
  }

  totals(): Totals {
    const bytesSent = Math.max(0, Math.min(this.bytesTotal, this.committed + this.inflight));
    const left = this.bytesTotal - bytesSent;
    const t: Totals = {
      bytesSent,
      bytesTotal: this.bytesTotal,
      filesDone: this.filesDone,
      filesTotal: this.filesTotal,
      rate: Math.round(this.rate),
      etaSeconds:
        left === 0
          ? 0
          : this.rate > 1
            ? Math.ceil(left / this.rate)
            : this.linkHint
              ? Math.ceil(left / this.linkHint)
              : null,
    };
    if (this.compression?.state === 'compressing') t.etaSeconds = this.etaHint;
    if (this.compression) t.compression = { ...this.compression };
    return t;
  }
}
