// Keeps a pending consent's status fresh while the operator's panel is open, spending as few API
// calls as it can (the Free plan allows 100 an hour): first look after a few seconds, then ever
// longer waits, a ceiling on calls per watch, and nothing once the consent is signed or the panel
// closes. The looks run on the agent's one poll scheduler (agent/background/poll-scheduler.ts) as foreground
// tasks: counted in the same hourly budget as every background refresh, held by a 429's
// Retry-After and by the reserve like them.
import type { ConsentStatus } from '../../../preload/contract/vocabulary';
import type { PollRegistrar } from '../poll-task';

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
export async function refreshConsentOnce(
  read: () => Promise<ConsentStatus>,
  onSigned: () => void,
): Promise<RefreshOutcome> {
  const status = await read();
  if (status === 'signed') {
    onSigned();
    return 'signed';
  }
  return status === 'pending' ? 'pending' : 'stop';
}

export type RefresherDeps = {
  poller: PollRegistrar;
  read: (examId: string) => Promise<ConsentStatus>;
  onSigned: (examId: string) => void;
  policy?: RefreshPolicy;
  onError?: (examId: string, e: unknown) => void;
};

/** One scheduler task per watched exam. */
export class ConsentStatusRefresher {
  private readonly watches = new Map<string, () => void>();

  constructor(private readonly deps: RefresherDeps) {}

  /** Starts (or restarts from the shortest wait) watching an exam's consent. */
  watch(examId: string): void {
    this.unwatch(examId);
    const policy = this.deps.policy ?? CONSENT_REFRESH_POLICY;
    let runs = 0;
    const off = this.deps.poller.register({
      id: `consent-status:${examId}`,
      foreground: true,
      intervalMs: policy.firstMs,
      minIntervalMs: policy.firstMs,
      // A failed look (a network hiccup, a 429) waits longer, never past the policy's ceiling.
      maxBackoffMs: policy.maxMs,
      initialDelayMs: consentRefreshDelay(0, policy) ?? policy.firstMs,
      calls: 1,
      nextDelayMs: (runs) => consentRefreshDelay(runs, policy),
      run: async () => {
        runs += 1;
        // The scheduler ends the task after its last look too; the watch is forgotten with it.
        const last = consentRefreshDelay(runs, policy) === null;
        const forget = (): void => {
          if (this.watches.get(examId) === off) this.watches.delete(examId);
        };
        let outcome: RefreshOutcome;
        try {
          outcome = await refreshConsentOnce(
            () => this.deps.read(examId),
            () => this.deps.onSigned(examId),
          );
        } catch (e) {
          this.deps.onError?.(examId, e);
          if (last) forget();
          throw e;
        }
        if (outcome === 'pending' && !last) return true;
        forget();
        return 'done';
      },
    });
    this.watches.set(examId, off);
  }

  unwatch(examId: string): void {
    const off = this.watches.get(examId);
    if (!off) return;
    this.watches.delete(examId);
    off();
  }

  watching(examId: string): boolean {
    return this.watches.has(examId);
  }

  close(): void {
    for (const id of [...this.watches.keys()]) this.unwatch(id);
  }
}
