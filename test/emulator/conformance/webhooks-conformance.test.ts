// Webhook subscriptions and deliveries against a real receiver on 127.0.0.1 (API-v1.md §2.8, §3.5, §4.5,
// §6; CONTRACTS.md --insecure-webhooks and POST /clock).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { api, EmulatorProcess, type EmulatorInfo } from '../../support/emulator/emulator';
import {
  burst,
  type Delivery,
  CreatedZipExam,
  EventBody,
  createExam,
  expectError,
  expectOk,
  expectValidationError,
  files,
  listIn,
  makePdf,
  put,
  isoTimestamp,
  makeDicom,
  makeZip,
  Receiver,
  signatureValid,
  sleep,
  stringsIn,
  unwrap,
  waitFor,
} from '../../support/emulator/conformance-client';

const ALL_EVENTS = [
  'exam.created',
  'exam.confirmed',
  'exam.deleted',
  'exam.updated',
  'exam.shared',
  'exam.extra_added',
  'report.published',
  'report.signed',
  'test.ping',
];

const Created = z
  .object({
    id: z.string().startsWith('wh_'),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string(),
    enabled: z.literal(true),
    secret: z.string().startsWith('whsec_'),
    created_at: isoTimestamp,
  })
  .loose();

let emu: EmulatorProcess;
let info: EmulatorInfo;
let pro: string;
let rx: Receiver;
let slow: { id: string; firstAt: number; eventId: string };

beforeAll(async () => {
  emu = await EmulatorProcess.start({ insecureWebhooks: true });
  info = emu.info;
  pro = info.keys.pro;
  rx = await Receiver.start();
  // §6.4.1 (a 2xx after more than 10 s is a failure) needs 10 s of real time: start it first and let the
  // rest of the file run meanwhile; the last test checks that it was retried.
  rx.answer('/slow', 200, 11_500);
  const sub = await api(info, pro, 'POST', '/webhooks', {
    url: `${rx.base}/slow`,
    events: ['exam.created'],
    description: 'slow',
  });
  expectOk(sub);
  const exam = await createExam(info, pro, files(1), { name: 'Slow receiver' });
  const first = await waitFor(() => rx.at('/slow')[0], 5000, 'first attempt at /slow');
  rx.answer('/slow', 200);
  slow = { id: String(unwrap(sub.json, 'webhook').id), firstAt: first.at, eventId: EventBody.parse(first.body).id };
  expect(stringsIn(EventBody.parse(first.body).data)).toContain(exam.id);
});
afterAll(async () => {
  await emu.dispose();
  await rx.close();
});

async function subscribe(path: string, events: string[], description = path): Promise<z.infer<typeof Created>> {
  const res = await api(info, pro, 'POST', '/webhooks', { url: `${rx.base}${path}`, events, description });
  expectOk(res);
  return Created.parse(unwrap(res.json, 'webhook'));
}

const clock = (advance_seconds: number) => emu.control('POST', '/clock', { advance_seconds });
const events = (path: string) => rx.at(path).map((d) => ({ d, e: EventBody.parse(d.body) }));
const waitEvent = (path: string, type: string, match: (e: z.infer<typeof EventBody>) => boolean = () => true) =>
  waitFor(() => events(path).find((x) => x.e.type === type && match(x.e)), 5000, `${type} at ${path}`);
const mentions = (id: string) => (e: z.infer<typeof EventBody>) => stringsIn(e.data).includes(id);
const readSub = async (id: string) => {
  const res = await api(info, pro, 'GET', `/webhooks/${id}`);
  expectOk(res, 200);
  return unwrap(res.json, 'webhook');
};

function expectWellSigned(d: Delivery, secret: string, type: string): void {
  expect(d.headers['content-type'] ?? '').toContain('application/json');
  expect(d.headers['user-agent']).toBe('Service-Webhooks/1.0');
  expect(d.headers['x-service-event']).toBe(type);
  expect(String(d.headers['x-service-delivery'])).toMatch(/^dlv_/);
  expect(String(d.headers['x-service-signature'])).toMatch(/^sha256=/);
  expect(signatureValid(d, secret), 'X-Service-Signature must be sha256=base64(HMAC-SHA256(secret, raw body))').toBe(
    true,
  );
}

describe('subscriptions', () => {
  it('creation answers the fields of §2.8 with the secret; later reads never show the whole secret', async () => {
    const sub = await subscribe('/created', ['test.ping'], 'Front desk');
    expect(sub.url).toBe(`${rx.base}/created`);
    expect(sub.events).toEqual(['test.ping']);
    expect(sub.description).toBe('Front desk');
    const one = await api(info, pro, 'GET', `/webhooks/${sub.id}`);
    expectOk(one, 200);
    expect(unwrap(one.json, 'webhook').id).toBe(sub.id);
    expect(stringsIn(one.json).some((s) => s.includes(sub.secret))).toBe(false);
    const all = await api(info, pro, 'GET', '/webhooks');
    expectOk(all, 200);
    expect(stringsIn(all.json)).toContain(sub.id);
    expect(stringsIn(all.json).some((s) => s.includes(sub.secret))).toBe(false);
    const prefixes = stringsIn(one.json).filter(
      (s) => s.startsWith('whsec_') && sub.secret.startsWith(s) && s.length < sub.secret.length,
    );
    expect(prefixes.length, 'a later read shows a prefix of the secret').toBeGreaterThan(0);
  });

  it("another account neither lists nor reads this account's subscriptions", async () => {
    const sub = await subscribe('/private', ['test.ping']);
    expect(stringsIn((await api(info, info.keys.ultra, 'GET', '/webhooks')).json)).not.toContain(sub.id);
    expectError(await api(info, info.keys.ultra, 'GET', `/webhooks/${sub.id}`), 404, 'not_found');
    expectError(await api(info, info.keys.ultra, 'POST', `/webhooks/${sub.id}/test`), 404, 'not_found');
  });

  it('PATCH does not change the URL', async () => {
    const sub = await subscribe('/fixed-url', ['test.ping']);
    const res = await api(info, pro, 'PATCH', `/webhooks/${sub.id}`, { url: `${rx.base}/moved` });
    if (res.status >= 300) expectError(res, 400, 'validation_error');
    expect((await readSub(sub.id)).url).toBe(`${rx.base}/fixed-url`);
  });

  it('with --insecure-webhooks, http is allowed for 127.0.0.1 only', async () => {
    const res = await api(info, pro, 'POST', '/webhooks', {
      url: 'http://example.com/hook',
      events: ['test.ping'],
      description: 'plain',
    });
    expectValidationError(res, 'url');
  });

  it('unknown event types are refused', async () => {
    const res = await api(info, pro, 'POST', '/webhooks', {
      url: `${rx.base}/x`,
      events: ['exam.exploded'],
      description: 'bad',
    });
    expectValidationError(res, 'events');
  });

  it('PATCH changes events, description and enabled; a disabled subscription receives no events', async () => {
    const sub = await subscribe('/patched', ['exam.deleted'], 'before');
    const res = await api(info, pro, 'PATCH', `/webhooks/${sub.id}`, {
      events: ['exam.created'],
      description: 'after',
      enabled: false,
    });
    expectOk(res, 200);
    const got = await readSub(sub.id);
    expect(got).toMatchObject({ events: ['exam.created'], description: 'after', enabled: false });
    const quiet = await createExam(info, pro, files(1), { name: 'While disabled' });
    await sleep(400);
    expect(rx.at('/patched')).toHaveLength(0);
    expectOk(await api(info, pro, 'PATCH', `/webhooks/${sub.id}`, { enabled: true }), 200);
    expect((await readSub(sub.id)).enabled).toBe(true);
    expect((await readSub(sub.id)).description).toBe('after');
    const loud = await createExam(info, pro, files(1), { name: 'While enabled' });
    await waitEvent('/patched', 'exam.created', mentions(loud.id));
    expect(events('/patched').some((x) => stringsIn(x.e.data).includes(quiet.id))).toBe(false);
    expectOk(await api(info, pro, 'PATCH', `/webhooks/${sub.id}`, { enabled: false }), 200);
  });

  it('DELETE removes it for good', async () => {
    const sub = await subscribe('/deleted', ['test.ping']);
    expectOk(await api(info, pro, 'DELETE', `/webhooks/${sub.id}`));
    expectError(await api(info, pro, 'GET', `/webhooks/${sub.id}`), 404, 'not_found');
    const reenable = await api(info, pro, 'PATCH', `/webhooks/${sub.id}`, { enabled: true });
    expectError(reenable, 404, 'not_found');
  });
});

describe('deliveries', () => {
  let all: z.infer<typeof Created>;
  let onlyCreated: z.infer<typeof Created>;
  let examId: string;

  beforeAll(async () => {
    all = await subscribe('/all', ALL_EVENTS);
    onlyCreated = await subscribe('/only-created', ['exam.created']);
  });

  it('test.ping: §6.3 headers, signature over the raw body, §6.2 body', async () => {
    expectOk(await api(info, pro, 'POST', `/webhooks/${all.id}/test`));
    const { d, e } = await waitEvent('/all', 'test.ping');
    expectWellSigned(d, all.secret, 'test.ping');
    expect(e.type).toBe('test.ping');
    expect(signatureValid(d, onlyCreated.secret)).toBe(false);
  });

  it('exam.created and exam.confirmed; exam.confirmed data has the §6.2 fields', async () => {
    const specs = files(2, 'wh', 12);
    const created = await createExam(info, pro, specs, {
      name: 'Webhook exam',
      patient_name: 'Inés Lagos',
      patient_id: 'IL-77',
    });
    examId = created.id;
    const c = await waitEvent('/all', 'exam.created', mentions(examId));
    expectWellSigned(c.d, all.secret, 'exam.created');
    for (const [i, f] of specs.entries())
      expect((await put(created.urls[i]?.url ?? '', f.bytes)).status).toBeLessThan(300);
    expectOk(await api(info, pro, 'POST', `/exams/${examId}/confirm`));
    const { d, e } = await waitEvent('/all', 'exam.confirmed', (x) => x.data.exam_id === examId);
    expectWellSigned(d, all.secret, 'exam.confirmed');
    const exam = (await api(info, pro, 'GET', `/exams/${examId}`)).json;
    expect(e.data).toMatchObject({
      exam_id: examId,
      exam_type: 'cbct',
      patient_name: 'Inés Lagos',
      patient_id: 'IL-77',
      status: 'ready',
      share_url: exam.share_url,
      viewer_url: exam.viewer_url,
    });
  });

  it('process-zip also emits exam.confirmed', async () => {
    const zip = await makeZip([{ name: 'IM1.dcm', bytes: makeDicom('1.2.826.0.1.3680043.8.498.501') }]);
    const res = await api(info, pro, 'POST', '/exams', {
      name: 'Zip webhook',
      upload_mode: 'zip',
      zip_size_bytes: zip.length,
      patient_id: 'Z-1',
    });
    expectOk(res, 201);
    const exam = CreatedZipExam.parse(res.json);
    expect((await put(exam.upload_url.url, zip)).status).toBeLessThan(300);
    expectOk(await api(info, pro, 'POST', `/exams/${exam.id}/process-zip`));
    const { d, e } = await waitEvent('/all', 'exam.confirmed', (x) => x.data.exam_id === exam.id);
    expectWellSigned(d, all.secret, 'exam.confirmed');
    expect(e.data).toMatchObject({ exam_id: exam.id, status: 'ready', patient_id: 'Z-1', exam_type: 'cbct' });
  });

  it('exam.updated data has fields and changes', async () => {
    expectOk(await api(info, pro, 'PATCH', `/exams/${examId}`, { reason: 'Control post-quirúrgico' }), 200);
    const { d, e } = await waitEvent('/all', 'exam.updated', mentions(examId));
    expectWellSigned(d, all.secret, 'exam.updated');
    expect(e.data).toHaveProperty('fields');
    expect(e.data).toHaveProperty('changes');
    expect(JSON.stringify(e.data.fields)).toContain('"reason"');
    expect(stringsIn(e.data.changes)).toContain('Control post-quirúrgico');
  });

  it('exam.shared data has to, cc and email_id', async () => {
    expectOk(
      await api(info, pro, 'POST', `/exams/${examId}/share`, { to: 'ines.lagos@example.com', message: 'Su examen' }),
    );
    const { d, e } = await waitEvent('/all', 'exam.shared', mentions(examId));
    expectWellSigned(d, all.secret, 'exam.shared');
    expect(e.data).toHaveProperty('cc');
    expect(e.data.email_id).toBeTruthy();
    expect(stringsIn(e.data.to)).toContain('ines.lagos@example.com');
  });

  it('exam.extra_added data has index, label, file_count and storage_bytes', async () => {
    const res = await api(info, pro, 'POST', `/exams/${examId}/extras`, {
      label: 'Toma 2',
      files: [
        { name: 'e1.dcm', size: 40 },
        { name: 'e2.dcm', size: 60 },
      ],
    });
    expectOk(res);
    const urls = z
      .array(z.unknown())
      .parse(res.json.upload_urls)
      .map((u) => (typeof u === 'string' ? u : String(z.object({ url: z.string() }).loose().parse(u).url)));
    expect((await put(urls[0] ?? '', Buffer.alloc(40))).status).toBeLessThan(300);
    expect((await put(urls[1] ?? '', Buffer.alloc(60))).status).toBeLessThan(300);
    expectOk(await api(info, pro, 'POST', `/exams/${examId}/extras/1/confirm`));
    const { d, e } = await waitEvent('/all', 'exam.extra_added', mentions(examId));
    expectWellSigned(d, all.secret, 'exam.extra_added');
    expect(e.data).toMatchObject({ index: 1, label: 'Toma 2', file_count: 2 });
    expect(z.number().parse(e.data.storage_bytes)).toBeGreaterThanOrEqual(100);
  });

  it('report.published (on upload and on replace) and report.signed', async () => {
    const pdf = await makePdf();
    expectOk(
      await api(info, pro, 'POST', `/exams/${examId}/report`, {
        pdf_base64: pdf.toString('base64'),
        filename: 'informe.pdf',
      }),
    );
    const p = await waitEvent('/all', 'report.published');
    expectWellSigned(p.d, all.secret, 'report.published');
    const replacement = await makePdf('Reemplazo');
    expectOk(await api(info, pro, 'POST', `/exams/${examId}/report`, { pdf_base64: replacement.toString('base64') }));
    await waitFor(
      () => (events('/all').filter((x) => x.e.type === 'report.published').length >= 2 ? true : undefined),
      5000,
      'report.published on replace',
    );
    expectOk(await api(info, pro, 'POST', `/exams/${examId}/report/sign`));
    const s = await waitEvent('/all', 'report.signed');
    expectWellSigned(s.d, all.secret, 'report.signed');
  });

  it('exam.deleted', async () => {
    expectOk(await api(info, pro, 'DELETE', `/exams/${examId}`), 200);
    const { d } = await waitEvent('/all', 'exam.deleted', mentions(examId));
    expectWellSigned(d, all.secret, 'exam.deleted');
  });

  it('a subscription receives only the event types it subscribed to', async () => {
    await waitEvent('/only-created', 'exam.created', mentions(examId));
    await sleep(200);
    const types = events('/only-created').map((x) => x.e.type);
    expect(new Set(types)).toEqual(new Set(['exam.created']));
  });

  it('event ids and delivery ids are unique; bodies carry no version field', () => {
    const got = events('/all');
    expect(got.length).toBeGreaterThanOrEqual(9);
    expect(new Set(got.map((x) => x.e.id)).size).toBe(got.length);
    expect(new Set(got.map((x) => String(x.d.headers['x-service-delivery']))).size).toBe(got.length);
    for (const x of got) expect(x.d.body).not.toHaveProperty('version');
  });
});

describe('retries (§6.4)', () => {
  it('a failing endpoint is retried at +30 s and +2 min on the service clock, 6 or 7 attempts in all, then abandoned', async () => {
    rx.answer('/fail', 500);
    const sub = await subscribe('/fail', ['exam.created']);
    const exam = await createExam(info, pro, files(1), { name: 'Retry me' });
    const first = await waitFor(() => rx.at('/fail')[0], 5000, 'first attempt');
    const eventId = EventBody.parse(first.body).id;
    expect(stringsIn(EventBody.parse(first.body).data)).toContain(exam.id);
    expectOk(await api(info, pro, 'PATCH', `/webhooks/${sub.id}`, { events: ['exam.deleted'] }), 200);

    await clock(29);
    await sleep(150);
    expect(rx.at('/fail')).toHaveLength(1);
    await clock(1);
    await waitFor(() => rx.at('/fail')[1], 3000, 'second attempt at +30 s');

    await clock(89); // 119 s after the first attempt: before +2 min whichever way the schedule is counted
    await sleep(150);
    expect(rx.at('/fail')).toHaveLength(2);
    await clock(31); // 150 s: due both as "+2 min from the first" and "+2 min after the second"
    await waitFor(() => rx.at('/fail')[2], 3000, 'third attempt');

    for (const s of [600, 3600, 6 * 3600, 24 * 3600, 48 * 3600]) await clock(s);
    await sleep(300);
    const attempts = rx.at('/fail');
    expect([6, 7]).toContain(attempts.length);
    for (const a of attempts) {
      expect(EventBody.parse(a.body).id).toBe(eventId);
      expectWellSigned(a, sub.secret, 'exam.created');
    }
    expect(new Set(attempts.map((a) => String(a.headers['x-service-delivery']))).size).toBe(attempts.length);

    await clock(7 * 24 * 3600);
    await sleep(200);
    expect(rx.at('/fail')).toHaveLength(attempts.length);
    expect((await readSub(sub.id)).enabled).toBe(true);

    const log = await api(info, pro, 'GET', `/webhooks/${sub.id}/deliveries`);
    expectOk(log, 200);
    const items = listIn(log.json, 'deliveries');
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThanOrEqual(attempts.length);
  });

  // CONTRACTS.md POST /clock: retries "that fall due are carried out before the call answers"; three days of
  // service time cover the whole §6.4 schedule.
  it('one clock jump carries out every retry that falls due in it', async () => {
    rx.answer('/jump', 500);
    const sub = await subscribe('/jump', ['exam.created']);
    await createExam(info, pro, files(1), { name: 'Jump' });
    await waitFor(() => rx.at('/jump')[0], 5000, 'first attempt');
    expectOk(await api(info, pro, 'PATCH', `/webhooks/${sub.id}`, { events: ['exam.deleted'] }), 200);
    await clock(3 * 24 * 3600);
    await sleep(300);
    expect([6, 7], `attempts after one 3-day jump: ${rx.at('/jump').length}`).toContain(rx.at('/jump').length);
  });

  // §6.4.2 names no exception for test.ping.
  it('test.ping deliveries follow the same retry rules', async () => {
    rx.answer('/ping-fail', 500);
    const sub = await subscribe('/ping-fail', ['test.ping']);
    expectOk(await api(info, pro, 'POST', `/webhooks/${sub.id}/test`));
    await waitFor(() => rx.at('/ping-fail')[0], 5000, 'first attempt');
    await clock(30);
    await waitFor(() => rx.at('/ping-fail')[1], 3000, 'second attempt of test.ping at +30 s');
  });

  it('successful deliveries are not retried', async () => {
    const byEvent = new Map<string, number>();
    for (const x of events('/all')) byEvent.set(x.e.id, (byEvent.get(x.e.id) ?? 0) + 1);
    expect([...byEvent.values()].every((n) => n === 1)).toBe(true);
  });

  it('20 consecutive failures disable the subscription (enabled=false)', async () => {
    rx.answer('/disable', 503);
    const sub = await subscribe('/disable', ['test.ping']);
    expectOk(await api(info, pro, 'POST', `/webhooks/${sub.id}/test`));
    await waitFor(() => rx.at('/disable')[0], 5000, 'first failure');
    expect((await readSub(sub.id)).enabled).toBe(true);
    const more = await burst(19, async () => (await api(info, pro, 'POST', `/webhooks/${sub.id}/test`)).status, 4);
    expect(more.every((st) => st >= 200 && st < 300)).toBe(true);
    for (const s of [3600, 24 * 3600, 48 * 3600]) await clock(s);
    await waitFor(
      async () => ((await readSub(sub.id)).enabled === false ? true : undefined),
      5000,
      'automatic disable',
    );
    expectOk(await api(info, pro, 'PATCH', `/webhooks/${sub.id}`, { enabled: true }), 200);
    expect((await readSub(sub.id)).enabled).toBe(true);
  });

  it('a success resets the consecutive failure count', async () => {
    rx.answer('/flaky', 500);
    const sub = await subscribe('/flaky', ['test.ping']);
    const ping = async (n: number) => {
      const statuses = await burst(n, async () => (await api(info, pro, 'POST', `/webhooks/${sub.id}/test`)).status, 4);
      expect(statuses.every((st) => st >= 200 && st < 300)).toBe(true);
    };
    await ping(19);
    await waitFor(() => (rx.at('/flaky').length >= 19 ? true : undefined), 5000, '19 failures');
    rx.answer('/flaky', 200);
    await ping(1);
    await waitFor(() => (rx.at('/flaky').length >= 20 ? true : undefined), 5000, 'one success');
    rx.answer('/flaky', 500);
    await ping(19);
    await waitFor(() => (rx.at('/flaky').length >= 39 ? true : undefined), 5000, '19 more failures');
    expect((await readSub(sub.id)).enabled).toBe(true);
  });

  it('the delivery log keeps the last 50', async () => {
    const sub = await subscribe('/log', ['test.ping']);
    const ping = async () => expectOk(await api(info, pro, 'POST', `/webhooks/${sub.id}/test`));
    // The first and last few go one at a time so that the oldest and newest deliveries are known.
    for (let i = 0; i < 5; i++) await ping();
    await burst(
      45,
      async () => {
        await ping();
        return 0;
      },
      4,
    );
    await waitFor(() => (rx.at('/log').length >= 50 ? true : undefined), 8000, '50 deliveries');
    for (let i = 0; i < 5; i++) await ping();
    await waitFor(() => (rx.at('/log').length >= 55 ? true : undefined), 8000, '55 deliveries');
    const log = await api(info, pro, 'GET', `/webhooks/${sub.id}/deliveries`);
    expectOk(log, 200);
    const items = listIn(log.json, 'deliveries');
    expect(items).toHaveLength(50);
    const lastDelivery = String(rx.at('/log')[54]?.headers['x-service-delivery']);
    const firstDelivery = String(rx.at('/log')[0]?.headers['x-service-delivery']);
    const logged = stringsIn(items);
    if (logged.some((s) => s.startsWith('dlv_'))) {
      expect(logged).toContain(lastDelivery);
      expect(logged).not.toContain(firstDelivery);
    }
  });

  it('an answer slower than 10 s counted as a failure and was retried', { timeout: 20_000 }, async () => {
    await sleep(Math.max(0, slow.firstAt + 11_800 - Date.now()));
    await clock(30);
    await waitFor(
      () => rx.at('/slow').filter((d) => EventBody.parse(d.body).id === slow.eventId)[1],
      3000,
      'retry after a time-out',
    );
    expect((await readSub(slow.id)).enabled).toBe(true);
  });
});
