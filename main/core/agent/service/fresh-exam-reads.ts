// One exam read per visit, one GET /me at start. The exam workspace's tabs each needed the exam
// (the summary, the extra takes, the consent desk) and each asked the service for it: three
// GET /exams/{id} for one visit, on a Free plan of 100 calls an hour; and the window's first
// account read and the background refresh at start each sent GET /me. The active client's exam
// reads are kept for a short while and shared (a read in flight too); any call that changes an
// exam (a write on its path) drops that exam, so what is shown after a change is read afresh.
// GET /me is shared only while in flight.
import type { Account, ApiClient, CallOptions, Exam, TransportEvent } from '../../api';

/** How long a read of an exam counts as fresh for another tab of the same visit. */
export const EXAM_READ_FRESH_MS = 60_000;

export class FreshExamReads {
  private readonly held = new Map<string, { at: number; exam: Promise<Exam> }>();
  private account: Promise<Account> | null = null;

  constructor(
    private readonly read: (id: string, options?: CallOptions) => Promise<Exam>,
    private readonly readMe: (options?: CallOptions) => Promise<Account>,
    private readonly freshMs = EXAM_READ_FRESH_MS,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** The exam, from a fresh read when there is one (reads with a signal of their own go out). */
  get(id: string, options?: CallOptions): Promise<Exam> {
    if (options?.signal) return this.read(id, options);
    const kept = this.held.get(id);
    if (kept && this.now() - kept.at < this.freshMs) return kept.exam;
    const exam = this.read(id, options);
    this.held.set(id, { at: this.now(), exam });
    // A failed read is not kept.
    exam.catch(() => {
      if (this.held.get(id)?.exam === exam) this.held.delete(id);
    });
    return exam;
  }

  /**
   * GET /me, shared with a read of it still in flight (the window's first account read and the
   * background refresh go out together when a key is connected). Once answered it is not kept:
   * staff's "Refresh" on the Account page asks the service again.
   */
  me(options?: CallOptions): Promise<Account> {
    if (this.account) return this.account;
    const me = this.readMe(options);
    this.account = me;
    const done = (): void => {
      if (this.account === me) this.account = null;
    };
    me.then(done, done);
    return me;
  }

  /** Follows the client's calls: a write under `exams/{id}` (or a delete) makes that exam stale. */
  observe(event: TransportEvent): void {
    if (event.type !== 'attempt' || event.method === 'GET') return;
    const m = /^\/?exams\/([^/?]+)/.exec(event.path);
    if (m?.[1]) this.held.delete(decodeURIComponent(m[1]));
  }
}

/** `client` with its exam reads going through `reads`. */
export function withFreshExamReads(client: ApiClient, reads: FreshExamReads): ApiClient {
  return {
    ...client,
    exams: { ...client.exams, get: (id, options) => reads.get(id, options) },
    account: { ...client.account, me: (options) => reads.me(options) },
  };
}
