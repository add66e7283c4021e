// Keeps a pending consent's status fresh while the operator's panel is open, spending as few API
// calls as it can (the Free plan allows 100 an hour): first look after a few seconds, then ever
// longer waits, a ceiling on calls per watch, and nothing once the consent is signed or the panel
// closes. `refreshConsentOnce` and `consentRefreshDelay` are the unit a shared poll scheduler can
// drive; `ConsentStatusRefresher` drives them with a plain timer meanwhile.

export type RefreshPolicy = {
  /** Wait before the first look. */
  firstMs: number;
  factor: number;
  maxMs: number;
  /** Looks per watch before giving up (the panel reopening or a new e-mail starts again). */
  maxCalls: number;
};

/** 3 s, 6 s, 12 s … up to 2 min: about 20 calls in the first hour, 30 at most. */
export const CONSENT_REFRESH_POLICY: RefreshPolicy = { firstMs: 3_000, factor: 2, maxMs: 120_000, maxCalls: 30 };

/** Wait before look number `attempt` (0-based), or null when the watch has spent its calls. */
export function consentRefreshDelay(attempt: number, policy: RefreshPolicy = CONSENT_REFRESH_POLICY): number | null {
  if (attempt >= policy.maxCalls) return null;
  return Math.min(policy.maxMs, policy.firstMs * policy.factor ** attempt);
}

export type RefreshOutcome = 'signed' | 'pending' | 'stop';

/**
 * One look: reads the status and reports it. `signed` and `stop` (no consent, or the read failed
 * in a way more looks will not fix) end the watch; `pending` asks for another look.
 */
export async function refreshConsentOnce(read: () => Promise<'none' | 'pending' | 'signed'>, onSigned: () => void): Promise<RefreshOutcome> {
  const status = await read();
  if (status === 'signed') {
    onSigned();
    return 'signed';
  }
  return status === 'pending' ? 'pending' : 'stop';
}

export type RefresherDeps = {
  read: (examId: string) => Promise<'none' | 'pending' | 'signed'>;
  onSigned: (examId: string) => void;
  policy?: RefreshPolicy;
  onError?: (examId: string, e: unknown) => void;
};

/** A plain timer per watched exam. */
export class ConsentStatusRefresher {
  private readonly watches = new Map<string, { attempt: number; timer: NodeJS.Timeout | null; running: boolean }>();

  constructor(private readonly deps: RefresherDeps) {}

  /** Starts (or restarts from the shortest wait) watching an exam's consent. */
  watch(examId: string): void {
    this.unwatch(examId);
    const w = { attempt: 0, timer: null as NodeJS.Timeout | null, running: true };
    this.watches.set(examId, w);
    this.schedule(examId, w);
  }

  unwatch(examId: string): void {
    const w = this.watches.get(examId);
    if (!w) return;
    w.running = false;
    if (w.timer) clearTimeout(w.timer);
    this.watches.delete(examId);
  }

  watching(examId: string): boolean {
    return this.watches.has(examId);
  }

  close(): void {
    for (const id of [...this.watches.keys()]) this.unwatch(id);
  }

  private schedule(examId: string, w: { attempt: number; timer: NodeJS.Timeout | null; running: boolean }): void {
    const delay = consentRefreshDelay(w.attempt, this.deps.policy);
    if (delay === null) {
      this.unwatch(examId);
      return;
    }
    w.timer = setTimeout(() => {
      w.timer = null;
      w.attempt += 1;
      refreshConsentOnce(() => this.deps.read(examId), () => this.deps.onSigned(examId))
        .catch((e: unknown): RefreshOutcome => {
          this.deps.onError?.(examId, e);
          // A network hiccup or a 429: the next, longer wait may do better.
          return 'pending';
        })
        .then((outcome) => {
          if (!w.running) return;
          if (outcome === 'pending') this.schedule(examId, w);
          else this.unwatch(examId);
        }, () => undefined);
    }, delay);
    w.timer.unref?.();
  }
}
