import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';
import { createReadyExam, makePdf } from '../../support/emulator/emulator-reports';
import { WebhookReceiver } from '../../support/network/webhooks-receiver';

type DeliveryItem = {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  retry_count: number;
  status: string;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
  created_at: string;
  next_retry_at: string | null;
};

/**
 * Webhook delivery against a real receiver on 127.0.0.1 (--insecure-webhooks), at time scale 1 so that
 * retries happen only when the test advances the service clock.
 */
describe('emulator: webhook delivery', () => {
  let emu: EmulatorProcess;
  let rx: WebhookReceiver;
  let key: string;
  let n = 0;

  beforeAll(async () => {
    [emu, rx] = await Promise.all([EmulatorProcess.start({ insecureWebhooks: true }), WebhookReceiver.start()]);
    key = emu.info.keys.pro;
  });
  afterAll(async () => {
    await Promise.all([emu.dispose(), rx.close()]);
  });

  /** A subscription to a fresh receiver path whose secret the receiver knows (unless told otherwise). */
  async function subscribe(
    events: string[],
    opts: { status?: number; knowSecret?: boolean; k?: string } = {},
  ): Promise<{ id: string; path: string; secret: string }> {
    const path = `/hook-${++n}`;
    const r = await api(emu.info, opts.k ?? key, 'POST', '/webhooks', {
      url: rx.url(path),
      events,
      description: `receiver ${n}`,
    });
    expect(r.status).toBe(201);
    const secret = r.json['secret'] as string;
    if (opts.knowSecret !== false) rx.setSecret(path, secret);
    if (opts.status !== undefined) rx.setStatus(path, opts.status);
    return { id: r.json['id'] as string, path, secret };
  }

  const deliveries = async (id: string): Promise<DeliveryItem[]> =>
    (await api(emu.info, key, 'GET', `/webhooks/${id}/deliveries`)).json['deliveries'] as DeliveryItem[];
  const advance = (seconds: number) => emu.control('POST', '/clock', { advance_seconds: seconds });
  const uploadReport = async (examId: string) => {
    const pdf = await makePdf('Informe');
    const r = await api(emu.info, key, 'POST', `/exams/${examId}/report`, {
      pdf_base64: pdf.toString('base64'),
      filename: 'informe.pdf',
    });
    expect(r.status).toBe(201);
    return pdf;
  };

  it('test sends one test.ping signed with the secret and carrying exactly the §6.3 headers', async () => {
    const hook = await subscribe(['exam.created']);
    const r = await api(emu.info, key, 'POST', `/webhooks/${hook.id}/test`);
    expect(r.status).toBe(200);
    expect(r.json['delivered']).toBe(true);
    const [got] = rx.on(hook.path);
    expect(rx.on(hook.path)).toHaveLength(1);
    expect(got?.answered).toBe(204);
    const h = got?.headers ?? {};
    expect(Object.keys(h).sort()).toEqual([
      'connection',
      'content-length',
      'content-type',
      'host',
      'user-agent',
      'x-service-delivery',
      'x-service-event',
      'x-service-signature',
    ]);
    expect(h['content-type']).toBe('application/json');
    expect(h['user-agent']).toBe('Service-Webhooks/1.0');
    expect(h['x-service-event']).toBe('test.ping');
    expect(h['x-service-delivery']).toMatch(/^dlv_[a-z0-9]+$/);
    expect(h['x-service-signature']).toMatch(/^sha256=[A-Za-z0-9+/]+=*$/);
    expect(Number(h['content-length'])).toBe(got?.raw.length);
    expect(Object.keys(got?.body ?? {}).sort()).toEqual(['created_at', 'data', 'id', 'type']);
    expect(got?.body.id).toMatch(/^evt_/);
    expect(got?.body.type).toBe('test.ping');
    expect(Number.isNaN(Date.parse(got?.body.created_at ?? ''))).toBe(false);

    const delivery = r.json['delivery'] as DeliveryItem;
    expect(delivery.id).toBe(h['x-service-delivery']);
    expect(delivery).toMatchObject({
      event_type: 'test.ping',
      attempt: 1,
      retry_count: 0,
      status: 'succeeded',
      response_status: 204,
      error: null,
      next_retry_at: null,
    });
    expect((await deliveries(hook.id))[0]?.id).toBe(delivery.id);
  });

  it('a receiver holding another secret rejects the signature with 401 and the delivery is logged as failed', async () => {
    const hook = await subscribe(['exam.created'], { knowSecret: false });
    rx.setSecret(hook.path, 'whsec_not_the_right_one');
    const r = await api(emu.info, key, 'POST', `/webhooks/${hook.id}/test`);
    expect(r.json['delivered']).toBe(false);
    expect(rx.on(hook.path)[0]?.answered).toBe(401);
    expect(r.json['delivery']).toMatchObject({
      status: 'failed',
      response_status: 401,
      response_body: 'bad signature',
      error: 'HTTP 401',
    });
    expect((await api(emu.info, key, 'GET', `/webhooks/${hook.id}`)).json['consecutive_failures']).toBe(1);
  });

  it('an unreachable endpoint is a failed delivery with the network error and no status', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const r = await api(emu.info, key, 'POST', '/webhooks', {
      url: `http://127.0.0.1:${port}/closed`,
      events: ['exam.created'],
    });
    const t = await api(emu.info, key, 'POST', `/webhooks/${r.json['id'] as string}/test`);
    expect(t.json['delivered']).toBe(false);
    expect(t.json['delivery']).toMatchObject({ status: 'failed', response_status: null });
    expect((t.json['delivery'] as DeliveryItem).error).toContain('ECONNREFUSED');
  });

  it('delivers exam.confirmed with exactly the §6.2 data when an exam is confirmed, and only subscribed types', async () => {
    const hook = await subscribe(['exam.confirmed']);
    const examId = await createReadyExam(emu.info, key, { patient_name: 'Ana Pérez', patient_id: '11.111.111-1' });
    const [got] = await rx.waitFor(hook.path, 1);
    expect(got?.headers['x-service-event']).toBe('exam.confirmed');
    expect(got?.body.type).toBe('exam.confirmed');
    const exam = (await api(emu.info, key, 'GET', `/exams/${examId}`)).json;
    expect(got?.body.data).toEqual({
      exam_id: examId,
      exam_type: 'cbct',
      patient_name: 'Ana Pérez',
      patient_id: '11.111.111-1',
      status: 'ready',
      share_url: exam['share_url'],
      viewer_url: exam['viewer_url'],
    });
    await new Promise((r) => setTimeout(r, 200));
    // exam.created was emitted too, but this subscription does not list it.
    expect(rx.on(hook.path).map((x) => x.body.type)).toEqual(['exam.confirmed']);
  });

  it('delivers report.published and report.signed with their data', async () => {
    const hook = await subscribe(['report.published', 'report.signed']);
    const examId = await createReadyExam(emu.info, key);
    const pdf = await uploadReport(examId);
    const sign = await api(emu.info, key, 'POST', `/exams/${examId}/report/sign`);
    const got = await rx.waitFor(hook.path, 2);
    const published = got.find((x) => x.body.type === 'report.published');
    const signed = got.find((x) => x.body.type === 'report.signed');
    expect(published?.body.data).toEqual({ exam_id: examId, filename: 'informe.pdf', size_bytes: pdf.length });
    expect(signed?.body.data).toEqual({
      exam_id: examId,
      signature_id: sign.json['signature_id'],
      verification_url: sign.json['verification_url'],
    });
    expect(signed?.headers['x-service-event']).toBe('report.signed');
  });

  it('sends nothing to disabled subscriptions or for sandbox actions', async () => {
    const hook = await subscribe(['exam.confirmed']);
    await api(emu.info, key, 'PATCH', `/webhooks/${hook.id}`, { enabled: false });
    await createReadyExam(emu.info, key);
    const sb = await subscribe(['exam.confirmed'], { k: emu.info.keys.sandbox });
    await createReadyExam(emu.info, emu.info.keys.sandbox);
    const live = await subscribe(['exam.confirmed']);
    await createReadyExam(emu.info, key);
    await rx.waitFor(live.path, 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(rx.on(hook.path)).toHaveLength(0);
    expect(rx.on(sb.path)).toHaveLength(0);
  });

  it('retries a failing event 30 s, 2 min, 10 min, 1 h, 6 h and 24 h after each attempt, then abandons it', async () => {
    const hook = await subscribe(['report.published'], { status: 500 });
    await uploadReport(await createReadyExam(emu.info, key));
    await rx.waitFor(hook.path, 1);
    const delays = [30, 120, 600, 3600, 21600, 86400];
    // Every due time of one event is counted from its first attempt (the advances made since then
    // set aside), and service time also runs on with real time. So each "not yet" check falls 1 s
    // before the retry is due counted from that first attempt, whatever real time the steps took (more
    // than a second on a busy machine); each "now" check at the due time's clock advance, as always.
    const firstAt = rx.on(hook.path)[0]?.at ?? Date.now();
    let advanced = 0;
    let dueAfter = 0;
    for (const [i, delay] of delays.entries()) {
      dueAfter += delay;
      const early = Math.max(0, dueAfter - 1 - (Date.now() - firstAt) / 1000 - advanced);
      await advance(early);
      advanced += early;
      expect(rx.on(hook.path), `before retry ${i + 1}`).toHaveLength(i + 1);
      await advance(dueAfter - advanced);
      advanced = dueAfter;
      expect(rx.on(hook.path), `retry ${i + 1}`).toHaveLength(i + 2);
    }
    await advance(30 * 86400);
    const got = rx.on(hook.path);
    expect(got).toHaveLength(7);
    // Same event and body every time; a new delivery id per attempt.
    expect(new Set(got.map((x) => x.body.id)).size).toBe(1);
    expect(new Set(got.map((x) => x.raw.toString('base64'))).size).toBe(1);
    expect(new Set(got.map((x) => x.headers['x-service-delivery'])).size).toBe(7);

    const log = await deliveries(hook.id);
    expect(log.map((d) => d.attempt)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(log.map((d) => d.retry_count)).toEqual([6, 5, 4, 3, 2, 1, 0]);
    expect(log.every((d) => d.status === 'failed' && d.response_status === 500 && d.error === 'HTTP 500')).toBe(true);
    expect(log[0]?.next_retry_at).toBeNull();
    const chrono = [...log].reverse();
    for (const [i, delay] of delays.entries()) {
      const gap = Date.parse(chrono[i + 1]?.created_at ?? '') - Date.parse(chrono[i]?.created_at ?? '');
      expect(gap, `gap before attempt ${i + 2}`).toBeGreaterThanOrEqual(delay * 1000);
      expect(gap).toBeLessThan(delay * 1000 + 3000);
      expect(Date.parse(chrono[i]?.next_retry_at ?? '')).toBeLessThanOrEqual(
        Date.parse(chrono[i + 1]?.created_at ?? ''),
      );
    }
    const after = (await api(emu.info, key, 'GET', `/webhooks/${hook.id}`)).json;
    expect(after['consecutive_failures']).toBe(7);
    expect(after['enabled']).toBe(true);
  });

  it('a retry that then succeeds ends the schedule and resets the failure count', async () => {
    const hook = await subscribe(['report.published'], { status: 503 });
    await uploadReport(await createReadyExam(emu.info, key));
    await rx.waitFor(hook.path, 1);
    rx.setStatus(hook.path, 200);
    await advance(30);
    expect(rx.on(hook.path).map((x) => x.answered)).toEqual([503, 200]);
    await advance(2 * 86400);
    expect(rx.on(hook.path)).toHaveLength(2);
    const log = await deliveries(hook.id);
    expect(log.map((d) => [d.attempt, d.status])).toEqual([
      [2, 'succeeded'],
      [1, 'failed'],
    ]);
    expect((await api(emu.info, key, 'GET', `/webhooks/${hook.id}`)).json['consecutive_failures']).toBe(0);
  });

  it('20 consecutive failures disable the subscription; a success before that resets the streak', async () => {
    const hook = await subscribe(['report.published'], { status: 500 });
    const ping = async () => (await api(emu.info, key, 'POST', `/webhooks/${hook.id}/test`)).json['delivered'];
    for (let i = 0; i < 19; i++) expect(await ping()).toBe(false);
    rx.setStatus(hook.path, 204);
    expect(await ping()).toBe(true);
    expect((await api(emu.info, key, 'GET', `/webhooks/${hook.id}`)).json['consecutive_failures']).toBe(0);
    rx.setStatus(hook.path, 500);
    for (let i = 0; i < 19; i++) await ping();
    expect((await api(emu.info, key, 'GET', `/webhooks/${hook.id}`)).json['enabled']).toBe(true);
    await ping();
    const off = (await api(emu.info, key, 'GET', `/webhooks/${hook.id}`)).json;
    expect(off['enabled']).toBe(false);
    expect(off['consecutive_failures']).toBe(20);
    expect(off['disabled_reason']).toMatch(/20 consecutive/);

    const notes = (await api(emu.info, key, 'GET', '/notifications')).json['notifications'] as { type: string }[];
    expect(notes.some((x) => x.type === 'webhook_disabled')).toBe(true);
    const act = (await api(emu.info, key, 'GET', '/activity?action=webhook.disabled')).json['activity'] as {
      resource_id: string;
    }[];
    expect(act.map((a) => a.resource_id)).toContain(hook.id);

    // Disabled: events are no longer delivered.
    const before = rx.on(hook.path).length;
    await uploadReport(await createReadyExam(emu.info, key));
    await new Promise((r) => setTimeout(r, 200));
    expect(rx.on(hook.path)).toHaveLength(before);
    // Re-enabling starts a fresh streak.
    const on = await api(emu.info, key, 'PATCH', `/webhooks/${hook.id}`, { enabled: true });
    expect(on.json).toMatchObject({ enabled: true, consecutive_failures: 0, disabled_reason: null });
  });

  it('failed attempts of retried events count toward the disable threshold too', async () => {
    const hook = await subscribe(['report.published'], { status: 500 });
    const ping = () => api(emu.info, key, 'POST', `/webhooks/${hook.id}/test`);
    // Two test pings and one event, each retried on the §6.4 schedule: 3 attempts now, 3 per step.
    await ping();
    await ping();
    await uploadReport(await createReadyExam(emu.info, key));
    await rx.waitFor(hook.path, 3);
    for (const delay of [30, 120, 600, 3600, 21600]) await advance(delay);
    expect(rx.on(hook.path)).toHaveLength(18);
    expect((await api(emu.info, key, 'GET', `/webhooks/${hook.id}`)).json['enabled']).toBe(true);
    // The 24 h step owes three more attempts; the 20th failure disables the subscription and the
    // last retry is dropped.
    await advance(86400);
    expect(rx.on(hook.path)).toHaveLength(20);
    expect((await api(emu.info, key, 'GET', `/webhooks/${hook.id}`)).json['enabled']).toBe(false);
  });

  it('keeps only the last 50 deliveries per subscription, newest first', async () => {
    const hook = await subscribe(['exam.created']);
    const ids: string[] = [];
    for (let i = 0; i < 55; i++) {
      const r = await api(emu.info, key, 'POST', `/webhooks/${hook.id}/test`);
      ids.push((r.json['delivery'] as DeliveryItem).id);
    }
    const log = await deliveries(hook.id);
    expect(log).toHaveLength(50);
    expect(log.map((d) => d.id)).toEqual(ids.slice(5).reverse());
    expect(log.every((d) => d.status === 'succeeded' && typeof d.duration_ms === 'number')).toBe(true);
  });

  it('deleting a subscription cancels its pending retries', async () => {
    const hook = await subscribe(['report.published'], { status: 500 });
    await uploadReport(await createReadyExam(emu.info, key));
    await rx.waitFor(hook.path, 1);
    expect((await api(emu.info, key, 'DELETE', `/webhooks/${hook.id}`)).status).toBe(200);
    await advance(86400);
    expect(rx.on(hook.path)).toHaveLength(1);
  });

  it('a receiver that does not answer within 10 s is a failed delivery', async () => {
    const hook = await subscribe(['exam.created']);
    rx.setDelay(hook.path, 10_600);
    const r = await api(emu.info, key, 'POST', `/webhooks/${hook.id}/test`);
    expect(r.json['delivered']).toBe(false);
    const d = r.json['delivery'] as DeliveryItem;
    expect(d).toMatchObject({ status: 'failed', response_status: null, error: 'no answer within 10 s' });
    expect(d.duration_ms).toBeGreaterThanOrEqual(9900);
    expect(d.duration_ms).toBeLessThan(10_600);
  }, 20_000);

  it('answers the API request that caused an event without waiting for the delivery', async () => {
    // The receiver holds this path's answers for 1.5 s; the upload must not wait for it.
    const hook = await subscribe(['report.published']);
    rx.setDelay(hook.path, 1500);
    const examId = await createReadyExam(emu.info, key);
    const started = Date.now();
    await uploadReport(examId);
    expect(Date.now() - started).toBeLessThan(1000);
    await rx.waitFor(hook.path, 1);
    rx.setDelay(hook.path, 0);
  });
});
