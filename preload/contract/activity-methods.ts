// The activity log and notifications (API-v1.md §4.10).
import { z } from 'zod';
import { id, method, noArgs } from './method';

export type ActivityView = {
  id: string | null;
  action: string;
  resource_type: string | null;
  resource_id: string | null;
  created_at: string | null;
};

export type ActivityPageView = { entries: ActivityView[]; next_cursor: string | null; sandbox: boolean };

export type NotificationView = {
  id: string;
  type: string | null;
  title: string;
  body: string;
  exam_id: string | null;
  read: boolean;
  created_at: string | null;
};

export type NotificationsState = { notifications: NotificationView[]; unread_count: number; updated_at: string };

export const activityMethods = {
  'activity:list': method<ActivityPageView>()(
    z
      .object({
        action: z
          .string()
          .trim()
          .min(1)
          .max(100)
          .regex(/^[a-z_]+(\.[a-z_]+)*$/)
          .optional(),
        /** The `next_cursor` of the previous page. */
        before: z.string().trim().min(1).max(64).optional(),
        limit: z.number().int().min(1).max(100).optional(),
      })
      .strict(),
  ),
  /** The last list the core holds when it is recent, else a fresh one; `refresh` always asks the service. */
  'notifications:list': method<NotificationsState>()(z.object({ refresh: z.boolean().optional() }).strict()),
  'notifications:mark-read': method<NotificationsState>()(z.object({ id }).strict()),
  'notifications:mark-all-read': method<NotificationsState>()(noArgs),
} as const;
