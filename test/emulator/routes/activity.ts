import type { App, AuthInfo } from '../core/app';
import { badRequest, notFound } from '../core/http';
import type { ActivityEntry, Notification } from '../core/state';
import { queryBool, queryInt } from '../core/validate';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The `before` cursor: an ISO 8601 date or date-time (UTC when no zone is given); anything else → 400. */
function queryCursor(q: URLSearchParams): number | undefined {
  const raw = q.get('before');
  if (raw === null || raw === '') return undefined;
  const text = raw.trim();
  let ms = NaN;
  if (ISO_DATE.test(text)) {
    const zoned = text.length > 10 && !/(Z|[+-]\d{2}:?\d{2})$/.test(text) ? `${text}Z` : text;
    ms = Date.parse(zoned);
  }
  if (!Number.isFinite(ms))
    throw badRequest('before must be an ISO 8601 date', [
      { field: 'before', message: 'expected an ISO 8601 date or date-time, e.g. next_cursor' },
    ]);
  return ms;
}

const activityView = (a: ActivityEntry): Record<string, unknown> => ({
  id: a.id,
  action: a.action,
  resource_type: a.resource_type,
  resource_id: a.resource_id,
  data: a.data,
  created_at: a.created_at,
});

const notificationView = (n: Notification): Record<string, unknown> => ({
  id: n.id,
  type: n.type,
  title: n.title,
  body: n.body,
  exam_id: n.exam_id,
  read: n.read,
  created_at: n.created_at,
  read_at: n.read_at,
});

/** The activity log and notifications (API-v1.md §2.13, §4.10); sandbox keys see empty lists (§5.5). */
export function register(app: App): void {
  const state = () => app.store.state;
  const mine = (auth: AuthInfo): Notification[] =>
    auth.sandbox ? [] : state().notifications.filter((n) => n.account_id === auth.account.id);

  app.api.add('GET', '/activity', { scope: 'account:read' }, ({ auth, query }) => {
    const limit = queryInt(query, 'limit', 50, 1, 100);
    const before = queryCursor(query);
    const action = query.get('action')?.trim() || undefined;
    if (action !== undefined && action.length > 100)
      throw badRequest('action is too long', [{ field: 'action', message: 'at most 100 characters' }]);
    if (auth.sandbox) return { body: { activity: [], next_cursor: null, has_more: false } };
    const entries = state()
      .activity.filter((a) => a.account_id === auth.account.id && (action === undefined || a.action === action))
      .map((a) => ({ a, t: Date.parse(a.created_at) }))
      .filter(({ t }) => before === undefined || t < before)
      .sort((x, y) => y.t - x.t);
    const page = entries.slice(0, limit).map(({ a }) => a);
    const hasMore = entries.length > limit;
    const last = page[page.length - 1];
    return {
      body: {
        activity: page.map(activityView),
        next_cursor: hasMore && last ? last.created_at : null,
        has_more: hasMore,
      },
    };
  });

  app.api.add('GET', '/notifications', { scope: 'account:read' }, ({ auth, query }) => {
    const unreadOnly = queryBool(query, 'unread_only') ?? false;
    const limit = queryInt(query, 'limit', 30, 1, 100);
    const all = mine(auth);
    // Stored in creation order, so newest first is the reverse.
    const shown = all
      .filter((n) => !unreadOnly || !n.read)
      .reverse()
      .slice(0, limit);
    return { body: { notifications: shown.map(notificationView), unread_count: all.filter((n) => !n.read).length } };
  });

  app.api.add('POST', '/notifications/mark-all-read', { scope: 'account:write' }, ({ auth }) => {
    const now = app.clock.nowIso();
    let marked = 0;
    for (const n of mine(auth)) {
      if (n.read) continue;
      n.read = true;
      n.read_at = now;
      marked++;
    }
    if (marked > 0)
      app.events.activity(
        auth.account.id,
        'notifications.all_read',
        'notification',
        null,
        { marked_count: marked },
        false,
      );
    return { body: { marked_count: marked } };
  });

  app.api.add('POST', '/notifications/:id/mark-read', { scope: 'account:write' }, ({ auth, params }) => {
    const n = mine(auth).find((x) => x.id === params['id']);
    if (!n) throw notFound('Notification');
    if (!n.read) {
      n.read = true;
      n.read_at = app.clock.nowIso();
      app.events.activity(
        auth.account.id,
        'notification.read',
        'notification',
        n.id,
        { notification_id: n.id, type: n.type },
        false,
      );
    }
    return { body: notificationView(n) };
  });
}
