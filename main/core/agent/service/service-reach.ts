// Whether the service can be reached, from what the active client's calls found: any answer (even
// an error status) means reachable; attempts that get no answer mean unreachable. The window shows
// it in the Inbox, so that a clinic whose uploads wait is told why instead of seeing nothing.
import type { ServiceReachView } from '../../../../preload/contract';
import type { TransportEvent } from '../../api';

/** Follows the transport's events and calls `onChange` when the state (or its problem) changes. */
export class ServiceReach {
  private view: ServiceReachView = { state: 'unknown', since: null, host: null, problem: null };

  constructor(
    private readonly onChange: (view: ServiceReachView) => void,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get current(): ServiceReachView {
    return this.view;
  }

  /** A new address (or key): nothing is known of it yet. */
  reset(host: string | null): void {
    if (this.view.state === 'unknown' && this.view.host === host) return;
    this.set({ state: 'unknown', since: null, host, problem: null });
  }

  /** Feeds one transport event of the active client. */
  observe(event: TransportEvent): void {
    if (event.type === 'answered') {
      if (this.view.state !== 'reachable')
        this.set({ ...this.view, state: 'reachable', since: this.stamp(), problem: null });
      return;
    }
    if (event.type !== 'unreached') return;
    const problem = event.net?.kind ?? (event.code === 'timeout' ? 'timeout' : 'no_answer');
    if (this.view.state === 'unreachable' && this.view.problem === problem) return;
    const since = this.view.state === 'unreachable' ? this.view.since : this.stamp();
    this.set({ ...this.view, state: 'unreachable', since, problem });
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  private set(view: ServiceReachView): void {
    this.view = view;
    this.onChange(view);
  }
}
