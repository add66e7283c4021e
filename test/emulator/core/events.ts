import type { Clock } from './clock';
import { newId } from './ids';
import type { ActivityEntry, Mail, Notification, ServiceEvent } from './state';
import type { Store } from './store';

type Listener = (accountId: string, event: ServiceEvent) => void;

/**
 * Where state changes leave their traces: the activity log, notifications, the outgoing mail log
 * and webhook events (API-v1.md §6). Sandbox actions leave none of them (§5.5).
 */
export class Events {
  private readonly listeners: Listener[] = [];
  private readonly lastStamp = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** Subscribes to every emitted service event (the webhook dispatcher does). */
  onEvent(listener: Listener): void {
    this.listeners.push(listener);
  }

  /** A strictly increasing timestamp per account, so activity cursors never tie. */
  private stamp(accountId: string): string {
    const last = this.lastStamp.get(accountId) ?? 0;
    const t = Math.max(this.clock.now(), last + 1);
    this.lastStamp.set(accountId, t);
    return new Date(t).toISOString();
  }

  /** Emits a §6.1 event: recorded as activity and handed to webhook listeners. */
  emit(accountId: string, type: string, data: Record<string, unknown>, sandbox: boolean): ServiceEvent {
    const event: ServiceEvent = { id: newId('evt_'), type, created_at: this.clock.nowIso(), data };
    if (sandbox) return event;
    const resource = typeof data['exam_id'] === 'string' ? data['exam_id'] : null;
    this.activity(accountId, type, resource ? 'exam' : (type.split('.')[0] ?? 'account'), resource, data, false);
    for (const l of this.listeners) l(accountId, event);
    return event;
  }

  /** Records an activity entry for a state change that is not a webhook event. */
  activity(
    accountId: string,
    action: string,
    resourceType: string,
    resourceId: string | null,
    data: Record<string, unknown>,
    sandbox: boolean,
  ): void {
    if (sandbox) return;
    if (this.lastStamp.get(accountId) === undefined) {
      const mine = this.store.state.activity.filter((a) => a.account_id === accountId);
      const newest = mine.reduce((m, a) => Math.max(m, Date.parse(a.created_at)), 0);
      this.lastStamp.set(accountId, newest);
    }
    const entry: ActivityEntry = {
      id: newId('act_'),
      account_id: accountId,
      action,
      resource_type: resourceType,
      resource_id: resourceId,
      data,
      created_at: this.stamp(accountId),
    };
    this.store.state.activity.push(entry);
  }

  /** Adds a notification for the account's users. */
  notify(
    accountId: string,
    n: { type: string; title: string; body: string; exam_id?: string | null },
    sandbox: boolean,
  ): Notification | null {
    if (sandbox) return null;
    const rec: Notification = {
      id: newId('ntf_'),
      account_id: accountId,
      type: n.type,
      title: n.title,
      body: n.body,
      exam_id: n.exam_id ?? null,
      read: false,
      created_at: this.clock.nowIso(),
      read_at: null,
    };
    this.store.state.notifications.push(rec);
    return rec;
  }

  /** Records an e-mail the live service would send (readable through GET /__emulator/mail). */
  mail(m: Omit<Mail, 'id' | 'created_at'>): Mail {
    const rec: Mail = { ...m, id: newId('eml_'), created_at: this.clock.nowIso() };
    this.store.state.mail.push(rec);
    return rec;
  }
}
