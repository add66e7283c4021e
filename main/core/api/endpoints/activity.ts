import { z } from 'zod';
import type { CallOptions, Transport } from '../http/http';
import { apiPath } from '../http/http';
import { paginateCursor } from '../http/paging';
import { optNumber, optString } from '../http/api-schema';

/** One activity log entry (§2.13); `action` is e.g. `exam.created`. */
export const activityEntrySchema = z.looseObject({
  id: optString,
  action: z.string(),
  resource_type: optString,
  resource_id: optString,
  data: z.unknown().optional(),
  created_at: optString,
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

export const activityPageSchema = z.looseObject({
  activity: z.array(activityEntrySchema),
  next_cursor: optString,
  has_more: z.boolean().nullish(),
});
export type ActivityPage = z.infer<typeof activityPageSchema>;

export type ActivityQuery = {
  /** 1..100, default 50. */
  limit?: number;
  /** ISO date cursor: the `next_cursor` of the previous page. */
  before?: string;
  /** e.g. `exam.created`. */
  action?: string;
};

export const notificationSchema = z.looseObject({
  id: z.string(),
  read: z.boolean(),
  type: optString,
  title: optString,
  body: optString,
  exam_id: optString,
  created_at: optString,
  read_at: optString,
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListSchema = z.looseObject({
  notifications: z.array(notificationSchema),
  unread_count: z.number(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

export const markedAllSchema = z.looseObject({ marked_count: optNumber });
export type MarkedAll = z.infer<typeof markedAllSchema>;

/** Activity log (§4.10). Sandbox keys see an empty log. */
export function activityApi(t: Transport) {
  const api = {
    /** GET /activity: one page, newest first. */
    list: (query: ActivityQuery = {}, options?: CallOptions): Promise<ActivityPage> =>
      t.json(
        { method: 'GET', path: apiPath('activity'), query, kind: 'read', idempotent: true },
        activityPageSchema,
        options,
      ),

    /** The whole log (optionally one action), newest first, following `next_cursor`. */
    iterate: (
      query: { action?: string; pageSize?: number } = {},
      options: CallOptions = {},
    ): AsyncGenerator<ActivityEntry, void, undefined> =>
      paginateCursor(async (before) => {
        const page = await api.list({ action: query.action, limit: query.pageSize ?? 100, before }, options);
        return { items: page.activity, nextCursor: page.has_more === false ? null : page.next_cursor };
      }, options.signal),
  };
  return api;
}

/** Notifications (§4.10). Sandbox keys see none. */
export function notificationsApi(t: Transport) {
  return {
    /** GET /notifications: the latest (default 30) and the unread count. */
    list: (query: { unread_only?: boolean; limit?: number } = {}, options?: CallOptions): Promise<NotificationList> =>
      t.json(
        { method: 'GET', path: apiPath('notifications'), query, kind: 'read', idempotent: true },
        notificationListSchema,
        options,
      ),

    /** POST /notifications/{id}/mark-read: idempotent. */
    markRead: (id: string, options?: CallOptions): Promise<Notification> =>
      t.json(
        { method: 'POST', path: apiPath('notifications', id, 'mark-read'), kind: 'write', idempotent: true },
        notificationSchema,
        options,
      ),

    /** POST /notifications/mark-all-read: how many were marked. */
    markAllRead: (options?: CallOptions): Promise<MarkedAll> =>
      t.json(
        { method: 'POST', path: apiPath('notifications', 'mark-all-read'), kind: 'write', idempotent: true },
        markedAllSchema,
        options,
      ),
  };
}
