import type { App } from '../core/app';
import { newId } from '../core/ids';
import type { Delivery, PendingDelivery, ServiceEvent, Webhook } from '../core/state';
import { postDelivery, signBody } from './deliver';

/** Delays before each retry, in spec seconds after the previous attempt (CHOICES.md, "Retry reading of §6.4"). */
export const RETRY_DELAYS_SECONDS = [30, 120, 600, 3600, 21600, 86400] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
/** §3.5: this many consecutive failed attempts disable a subscription. */
export const DISABLE_AFTER_FAILURES = 20;
/** §6.4.4: deliveries kept per subscription. */
export const DELIVERY_LOG_SIZE = 50;

/**
 * Pushes service events to webhook subscriptions (API-v1.md §6): fan-out, signing, retries with
 * the time-scaled backoff schedule, persistence of owed retries, the delivery log and the automatic
 * disable after repeated failures. Deliveries never hold up the API request that caused the event.
 */
export class WebhookDispatcher {
  constructor(private readonly app: App) {}

  /** Hooks into the event stream and re-arms retries persisted before a restart. */
  install(): void {
    this.app.events.onEvent((accountId, event) => this.fanOut(accountId, event));
    this.app.onStart(() => {
      for (const p of this.app.store.state.pending_deliveries) this.arm(p);
    });
  }

  private fanOut(accountId: string, event: ServiceEvent): void {
    const hooks = this.app.store.state.webhooks.filter(
      (h) => h.account_id === accountId && !h.sandbox && h.enabled && h.events.includes(event.type),
    );
    for (const hook of hooks) {
      const pending: PendingDelivery = {
        webhook_id: hook.id,
        event,
        attempt: 1,
        due: this.app.clock.now(),
        armed_offset: this.app.clock.offsetMs,
      };
      // Recorded before the first attempt, so an emulator killed mid-delivery still owes it after a restart.
      this.app.store.state.pending_deliveries.push(pending);
      void this.run(pending).catch((err: unknown) => this.report(err));
    }
  }

  /** Sends a test.ping (retried like any event, §6.4) and returns the log entry of its first attempt. */
  async ping(hook: Webhook): Promise<Delivery> {
    const event: ServiceEvent = {
      id: newId('evt_'),
      type: 'test.ping',
      created_at: this.app.clock.nowIso(),
      data: { webhook_id: hook.id, message: 'Test delivery from the webhooks settings' },
    };
    const pending: PendingDelivery = {
      webhook_id: hook.id,
      event,
      attempt: 1,
      due: this.app.clock.now(),
      armed_offset: this.app.clock.offsetMs,
    };
    this.app.store.state.pending_deliveries.push(pending);
    const delivery = await this.attempt(hook, event, 1, pending);
    this.app.store.save();
    return delivery;
  }

  /** Forgets everything owed to a deleted subscription. */
  forget(webhookId: string): void {
    const s = this.app.store.state;
    s.pending_deliveries = s.pending_deliveries.filter((p) => p.webhook_id !== webhookId);
    s.deliveries = s.deliveries.filter((d) => d.webhook_id !== webhookId);
  }

  private arm(p: PendingDelivery): void {
    this.app.clock.at(p.due, `webhook retry ${p.webhook_id}`, () => this.run(p));
  }

  private async run(p: PendingDelivery): Promise<void> {
    const s = this.app.store.state;
    if (!s.pending_deliveries.includes(p)) return;
    const hook = s.webhooks.find((h) => h.id === p.webhook_id);
    if (!hook || !hook.enabled) {
      s.pending_deliveries = s.pending_deliveries.filter((x) => x !== p);
      this.app.store.save();
      return;
    }
    await this.attempt(hook, p.event, p.attempt, p);
    this.app.store.save();
  }

  /**
   * One HTTP attempt and its bookkeeping: the log entry, the failure streak, the automatic disable
   * and the next retry.
   */
  private async attempt(
    hook: Webhook,
    event: ServiceEvent,
    attempt: number,
    pending: PendingDelivery,
  ): Promise<Delivery> {
    const body = Buffer.from(
      JSON.stringify({ id: event.id, type: event.type, created_at: event.created_at, data: event.data }),
    );
    const deliveryId = newId('dlv_');
    const createdAt = this.app.clock.nowIso();
    const result = await postDelivery(
      hook.url,
      {
        'Content-Type': 'application/json',
        'User-Agent': 'Service-Webhooks/1.0',
        'X-Service-Event': event.type,
        'X-Service-Delivery': deliveryId,
        'X-Service-Signature': signBody(hook.secret, body),
      },
      body,
    );

    const s = this.app.store.state;
    s.pending_deliveries = s.pending_deliveries.filter((x) => x !== pending);
    const alive = s.webhooks.includes(hook);
    if (alive) this.countOutcome(hook, result.ok);

    let nextRetryAt: string | null = null;
    if (!result.ok && alive && hook.enabled && attempt < MAX_ATTEMPTS) {
      const delay = RETRY_DELAYS_SECONDS[attempt - 1] ?? 0;
      // Counted from when this attempt failed, less any control-API clock advance made since the first
      // attempt was scheduled (every due time of one event stays in that first frame): attempts are
      // never closer than the schedule in real time, and one large advance still carries out every
      // retry of the schedule that falls inside it.
      const frame = pending.armed_offset ?? this.app.clock.offsetMs;
      const base = Math.max(pending.due, this.app.clock.now() - (this.app.clock.offsetMs - frame));
      const next: PendingDelivery = {
        webhook_id: hook.id,
        event,
        attempt: attempt + 1,
        due: base + this.app.clock.scaled(delay),
        armed_offset: frame,
      };
      s.pending_deliveries.push(next);
      this.arm(next);
      nextRetryAt = new Date(next.due).toISOString();
    }

    const delivery: Delivery = {
      id: deliveryId,
      webhook_id: hook.id,
      event_id: event.id,
      event_type: event.type,
      attempt,
      status: result.ok ? 'succeeded' : 'failed',
      response_status: result.status,
      response_body: result.body,
      error: result.error,
      duration_ms: result.durationMs,
      created_at: createdAt,
      next_retry_at: nextRetryAt,
    };
    if (alive) this.log(delivery);
    return delivery;
  }

  private countOutcome(hook: Webhook, ok: boolean): void {
    if (ok) {
      hook.consecutive_failures = 0;
      return;
    }
    hook.consecutive_failures += 1;
    if (hook.enabled && hook.consecutive_failures >= DISABLE_AFTER_FAILURES) {
      hook.enabled = false;
      hook.disabled_reason = `disabled automatically after ${DISABLE_AFTER_FAILURES} consecutive delivery failures`;
      hook.updated_at = this.app.clock.nowIso();
      const { events } = this.app;
      events.notify(
        hook.account_id,
        {
          type: 'webhook_disabled',
          title: 'Webhook disabled',
          body: `The webhook to ${hook.url} was disabled after ${DISABLE_AFTER_FAILURES} consecutive delivery failures.`,
        },
        hook.sandbox,
      );
      events.activity(
        hook.account_id,
        'webhook.disabled',
        'webhook',
        hook.id,
        { reason: 'consecutive_failures', failures: hook.consecutive_failures },
        hook.sandbox,
      );
    }
  }

  /** Appends to the log, keeping only the newest entries of that subscription. */
  private log(delivery: Delivery): void {
    const s = this.app.store.state;
    s.deliveries.push(delivery);
    const mine = s.deliveries.filter((d) => d.webhook_id === delivery.webhook_id);
    if (mine.length > DELIVERY_LOG_SIZE) {
      const drop = new Set(mine.slice(0, mine.length - DELIVERY_LOG_SIZE));
      s.deliveries = s.deliveries.filter((d) => !drop.has(d));
    }
  }

  private report(err: unknown): void {
    process.stderr.write(
      `emulator: webhook delivery failed unexpectedly: ${err instanceof Error ? err.message : String(err)}\n`,
    );
  }
}
