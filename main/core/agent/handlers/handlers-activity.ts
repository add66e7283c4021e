// The activity log and the notifications (API-v1.md §4.10). Notifications go through the feed the
// poll scheduler refreshes, so the bell, the list and the OS notifications agree.
import type { ActivityView } from '../../../../preload/contract';
import type { ActivityEntry } from '../../api/endpoints';
import type { Handlers } from '../host/contract-host';
import type { HandlerContext } from './handler-context';

const FRESH_MS = 30_000;

const entryView = (a: ActivityEntry): ActivityView => ({
  id: a.id ?? null,
  action: a.action,
  resource_type: a.resource_type ?? null,
  resource_id: a.resource_id ?? null,
  created_at: a.created_at ?? null,
});

export function createActivityHandlers(
  ctx: HandlerContext,
): Pick<Handlers, 'activity:list' | 'notifications:list' | 'notifications:mark-read' | 'notifications:mark-all-read'> {
  return {
    'activity:list': async (args) => {
      const client = ctx.service.require();
      const page = await client.activity.list({
        limit: args.limit ?? 25,
        ...(args.before ? { before: args.before } : {}),
        ...(args.action ? { action: args.action } : {}),
      });
      // The window just read the newest entries: the background check can wait.
      if (!args.before && !args.action) ctx.poll.markFresh('activity');
      return {
        entries: page.activity.map(entryView),
        next_cursor: page.has_more === false ? null : (page.next_cursor ?? null),
        sandbox: client.sandbox,
      };
    },
    'notifications:list': async (args) => {
      const client = ctx.service.require();
      // A window opening right after a background check gets that list, without another call.
      const cached = ctx.feed.current();
      if (cached && !args.refresh && Date.now() - Date.parse(cached.updated_at) < FRESH_MS) return cached;
      const state = await ctx.feed.refresh(client);
      ctx.poll.markFresh('notifications');
      return state;
    },
    'notifications:mark-read': async (args) => ctx.feed.markRead(ctx.service.require(), args.id),
    'notifications:mark-all-read': async () => ctx.feed.markAllRead(ctx.service.require()),
  };
}
