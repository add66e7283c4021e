// The background refreshes the agent registers with the poll scheduler: notifications (the bell and
// OS notifications), the account (plan, storage, the rate meter) and the newest activity entry.
// Intervals are for the Free plan; the scheduler shortens them on larger plans and keeps the sum
// within the budget (4 + 1 + 2 = 7 calls an hour on Free, under the 8 it allows).
import type { AccountView } from '../../../../preload/contract';
import type { ApiClient } from '../../api';
import type { NotificationFeed } from './notification-feed';
import type { PollScheduler } from './poll-scheduler';
import { accountView } from '../service/service-connection';

const MINUTE = 60_000;

export type BackgroundDeps = {
  scheduler: PollScheduler;
  client: () => ApiClient | null;
  feed: NotificationFeed;
  pushAccount: (account: AccountView) => void;
  pushActivity: (latest: { latest_at: string | null }) => void;
};

/** Registers the core's own background tasks; returns the function that removes them. */
export function registerBackgroundTasks(deps: BackgroundDeps): () => void {
  let latestActivity: string | null | undefined;
  const offs = [
    deps.scheduler.register({
      id: 'notifications',
      intervalMs: 15 * MINUTE,
      run: async (signal) => {
        const client = deps.client();
        if (!client) return false;
        await deps.feed.refresh(client, signal);
        return true;
      },
    }),
    deps.scheduler.register({
      id: 'account',
      intervalMs: 60 * MINUTE,
      minIntervalMs: 5 * MINUTE,
      initialDelayMs: 2_000,
      run: async (signal) => {
        const client = deps.client();
        if (!client) return false;
        deps.pushAccount(accountView(await client.account.me({ signal }), client));
        return true;
      },
    }),
    deps.scheduler.register({
      id: 'activity',
      intervalMs: 30 * MINUTE,
      minIntervalMs: 2 * MINUTE,
      initialDelayMs: 4_000,
      run: async (signal) => {
        const client = deps.client();
        if (!client) return false;
        const page = await client.activity.list({ limit: 1 }, { signal });
        const latest = page.activity[0]?.created_at ?? null;
        if (latestActivity !== undefined && latest !== latestActivity) deps.pushActivity({ latest_at: latest });
        latestActivity = latest;
        return true;
      },
    }),
  ];
  return () => offs.forEach((off) => off());
}
