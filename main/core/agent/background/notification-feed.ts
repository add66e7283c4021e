// The account's notifications as the core last saw them: refreshed by the poll scheduler, updated
// in place by mark-read (no extra call), pushed to the windows, and each new unread one raised as an
// OS notification so the front desk sees it with the window closed.
import type { NotificationsState, NotificationView } from '../../../../preload/contract';
import type { ApiClient } from '../../api';
import type { Notification, NotificationList } from '../../api/endpoints';
import type { Notifier } from '../host/host-ports';

const view = (n: Notification): NotificationView => ({
  id: n.id,
  type: n.type ?? null,
  title: n.title ?? '',
  body: n.body ?? '',
  exam_id: n.exam_id ?? null,
  read: n.read,
  created_at: n.created_at ?? null,
});

/** At most this many OS notifications at once; more would bury the desktop. */
const MAX_OS_NOTICES = 3;

export class NotificationFeed {
  private state: NotificationsState | null = null;
  private readonly seen = new Set<string>();

  constructor(
    private readonly push: (state: NotificationsState) => void,
    private readonly notifier: () => Notifier,
  ) {}

  current(): NotificationsState | null {
    return this.state;
  }

  /** Forgets everything (another key is in use). */
  reset(): void {
    this.state = null;
    this.seen.clear();
  }

  /** GET /notifications, then announces what is new. */
  async refresh(client: ApiClient, signal?: AbortSignal): Promise<NotificationsState> {
    return this.apply(await client.notifications.list({ limit: 30 }, signal ? { signal } : {}));
  }

  /** Takes a fresh list: new unread ones since the last list become OS notifications. */
  apply(list: NotificationList): NotificationsState {
    const first = this.state === null;
    const fresh = list.notifications.filter((n) => !n.read && !this.seen.has(n.id));
    for (const n of list.notifications) this.seen.add(n.id);
    this.state = {
      notifications: list.notifications.map(view),
      unread_count: list.unread_count,
      updated_at: new Date().toISOString(),
    };
    // The first list after start-up is what was already there, not news.
    if (!first) {
      for (const n of fresh.slice(0, MAX_OS_NOTICES)) {
        try {
          this.notifier().notify({ kind: 'service_notification', title: n.title ?? '', body: n.body ?? '' });
        } catch {
          // No notification service: the bell still shows it.
        }
      }
    }
    this.push(this.state);
    return this.state;
  }

  /** Marks one read on the service, then in the cached list. */
  async markRead(client: ApiClient, id: string): Promise<NotificationsState> {
    const marked = await client.notifications.markRead(id);
    const state = this.state;
    const cached = state?.notifications.find((n) => n.id === id);
    if (!state || !cached) return this.refresh(client);
    const wasUnread = !cached.read;
    this.state = {
      notifications: state.notifications.map((n) => (n.id === id ? { ...view(marked), read: true } : n)),
      unread_count: wasUnread ? Math.max(0, state.unread_count - 1) : state.unread_count,
      updated_at: new Date().toISOString(),
    };
    this.push(this.state);
    return this.state;
  }

  /** Marks every one read. */
  async markAllRead(client: ApiClient): Promise<NotificationsState> {
    await client.notifications.markAllRead();
    const state = this.state ?? { notifications: [], unread_count: 0, updated_at: '' };
    this.state = {
      notifications: state.notifications.map((n) => ({ ...n, read: true })),
      unread_count: 0,
      updated_at: new Date().toISOString(),
    };
    this.push(this.state);
    return this.state;
  }
}
