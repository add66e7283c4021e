// Every call the window makes that is not safe to repeat, with its answer lost for real: the agent
// talks to the emulator through the lost-answer proxy, which lets the request reach the service and
// then cuts the connection. Each call must have exactly one effect on the service (never retried
// blindly), end with an honest outcome through the contract (`maybe_done`, not "cannot reach the
// service… try again"), and `outcome:check` must find what the service now holds.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodArgs, MethodName, MethodResult } from '@preload/contract';
import { startAgent } from '@main/core/agent';
import { ContractFailure } from '@main/core/agent/host/contract-host';
import { MemorySecretStore } from '@main/core/secrets';
import { writeCbctExport } from '../../fixtures/dicom/generate';
import { makePdf, seedExam } from '../../support/e2e/exam-seeds';
import { api } from '../../support/emulator/emulator';
import { emulatorScene } from '../../support/emulator/emulator-scene';
import { LostAnswerProxy } from '../../support/network/lost-answer-proxy';
import { signaturePng } from '../../support/data/png-images';
import { poller, type AgentHarness } from '../../support/harness/agent-harness';

const scene = emulatorScene({ emulator: { insecureWebhooks: true }, scratch: 'sb-lost-' });
const waitFor = poller(30_000, 100);
let proxy: LostAnswerProxy;
let h: AgentHarness;
let receiver: Server;
const pings: string[] = [];

beforeAll(async () => {
  proxy = await LostAnswerProxy.start(scene.emulator.info.base_url);
  receiver = createServer((req, res) => {
    req.resume();
    req.once('end', () => {
      pings.push(String(req.headers['x-webhook-event'] ?? req.headers['x-event-type'] ?? 'delivery'));
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  // The agent reaches the service only through the proxy.
  const agent = await startAgent({
    dataDir: join(scene.scratch, 'data'),
    configDir: join(scene.scratch, 'config'),
    env: { SCANBRIDGE_API_URL: proxy.baseUrl },
    transport: 'http',
    secretStore: new MemorySecretStore(),
    systemLanguage: 'es',
    notifier: { notify: () => undefined },
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    patientPageOrigin: () => 'http://127.0.0.1:1',
    tuning: { retryDelaysMs: [200] },
  });
  const call = <M extends MethodName>(name: M, args: MethodArgs<M>): Promise<MethodResult<M>> =>
    agent.host.call(name, args) as Promise<MethodResult<M>>;
  h = { agent, call };
  await h.call('keys:save', { key: scene.emulator.info.keys.pro });
}, 60_000);
afterAll(async () => {
  await h?.agent.stop();
  await proxy?.stop();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

const info = () => scene.emulator.info;
const key = () => info().keys.pro;

/**
 * Loses the answer of the one request matching `method` and `path` that `run` makes, and returns how
 * `run` ended. Asserts the request went out exactly once (no blind retry) and its answer was lost.
 */
async function withLostAnswer(
  method: string,
  path: RegExp,
  run: () => Promise<unknown>,
): Promise<{ error: unknown; result: unknown }> {
  const seenBefore = proxy.seen.length;
  const lostBefore = proxy.lost.length;
  proxy.loseNext({ method, path });
  let error: unknown = null;
  let result: unknown = null;
  try {
    result = await run();
  } catch (e) {
    error = e;
  }
  proxy.clearRules();
  const sent = proxy.seen.slice(seenBefore).filter((r) => r.method === method && path.test(r.path));
  expect(sent, `${method} ${String(path)} sent once`).toHaveLength(1);
  expect(proxy.lost.slice(lostBefore).map((l) => l.status)).toEqual([expect.any(Number)]);
  expect(proxy.lost.at(-1)?.status).toBeLessThan(300);
  return { error, result };
}

/** The window's look after a lost answer (`outcome:check`): it must cost exactly one API call. */
async function look(check: MethodArgs<'outcome:check'>): Promise<MethodResult<'outcome:check'>> {
  // The agent's own background refreshes (account, notifications, activity) may pass meanwhile.
  const background = /\/api\/v1\/(me|notifications|activity)(\?|$)/;
  const before = proxy.seen.length;
  const finding = await h.call('outcome:check', check);
  expect(
    proxy.seen.slice(before).filter((r) => !background.test(r.path)),
    `one call to look at ${check.action}`,
  ).toHaveLength(1);
  return finding;
}

function expectMaybeDone(error: unknown): void {
  expect(error).toBeInstanceOf(ContractFailure);
  expect(error).toMatchObject({ code: 'maybe_done' });
}

type Mail = { kind: string; to: string[]; exam_id: string | null };
const mailTo = async (to: string): Promise<Mail[]> =>
  (await scene.emulator.control<{ mail: Mail[] }>('GET', `/mail?to=${encodeURIComponent(to)}`)).mail;

describe('a lost answer through the agent and the contract', () => {
  it('share by e-mail: one e-mail, maybe_done, and the look finds the share counted', async () => {
    const examId = await seedExam(info(), key(), { name: 'Lost share', patient_name: 'ANA PÉREZ' });
    const to = `lost-share-${Date.now()}@clinica.example`;
    const { error } = await withLostAnswer('POST', /\/exams\/[^/]+\/share$/, () =>
      h.call('share:email', { exam_id: examId, to: [to], cc: [], locale: 'es' }),
    );
    expectMaybeDone(error);
    const mail = await mailTo(to);
    expect(mail.filter((m) => m.kind === 'exam_share')).toHaveLength(1);
    expect(await look({ action: 'share', exam_id: examId })).toEqual({ action: 'share', shares: 1 });
  });

  it('PIN rotation: rotated once, maybe_done, and the look gives the PIN now in force', async () => {
    const examId = await seedExam(info(), key(), { name: 'Lost PIN' });
    const before = (await api(info(), key(), 'GET', `/exams/${examId}/access-pin`)).json['pin'] as string;
    const { error } = await withLostAnswer('POST', /\/exams\/[^/]+\/access-pin$/, () =>
      h.call('share:rotate-pin', { exam_id: examId }),
    );
    expectMaybeDone(error);
    const now = (await api(info(), key(), 'GET', `/exams/${examId}/access-pin`)).json['pin'] as string;
    expect(now).not.toBe(before);
    expect(await look({ action: 'rotate_pin', exam_id: examId })).toEqual({ action: 'rotate_pin', pin: now });
  });

  it('embed enable: enabled once, maybe_done, and the look finds it on', async () => {
    const examId = await seedExam(info(), key(), { name: 'Lost embed' });
    const { error } = await withLostAnswer('POST', /\/exams\/[^/]+\/embed$/, () =>
      h.call('share:embed-enable', { exam_id: examId, show_year: true, show_study_type: true }),
    );
    expectMaybeDone(error);
    expect((await api(info(), key(), 'GET', `/exams/${examId}/embed`)).json).toMatchObject({ enabled: true });
    expect(await look({ action: 'embed_enable', exam_id: examId })).toEqual({ action: 'embed_enable', enabled: true });
  });

  it('report upload and report signature: each done once, maybe_done, and the look finds the report and its signature', async () => {
    const examId = await seedExam(info(), key(), { name: 'Lost report' });
    expect(await look({ action: 'report_upload', exam_id: examId })).toMatchObject({ present: false });
    const pdf = (await makePdf('Informe perdido')).toString('base64');
    const upload = await withLostAnswer('POST', /\/exams\/[^/]+\/report$/, () =>
      h.call('reports:upload', { exam_id: examId, filename: 'informe.pdf', base64: pdf }),
    );
    expectMaybeDone(upload.error);
    expect((await api(info(), key(), 'GET', `/exams/${examId}/report`)).status).toBe(200);
    expect(await look({ action: 'report_upload', exam_id: examId })).toMatchObject({
      action: 'report_upload',
      present: true,
      filename: 'informe.pdf',
    });

    expect(await look({ action: 'report_sign', exam_id: examId })).toMatchObject({ signed: false });
    const sign = await withLostAnswer('POST', /\/exams\/[^/]+\/report\/sign$/, () =>
      h.call('reports:sign', { exam_id: examId }),
    );
    expectMaybeDone(sign.error);
    const report = (await api(info(), key(), 'GET', `/exams/${examId}/report`)).json;
    expect(report['signature']).toMatchObject({ signature_id: expect.any(String) });
    expect(await look({ action: 'report_sign', exam_id: examId })).toMatchObject({
      action: 'report_sign',
      signed: true,
    });
  });

  it('consent start and the signing e-mail: one consent, one e-mail, maybe_done each, and the look finds the consent pending', async () => {
    const examId = await seedExam(info(), key(), { name: 'Lost consent', patient_name: 'LUIS SOTO' });
    const start = await withLostAnswer('POST', /\/exams\/[^/]+\/consent$/, () =>
      h.call('consent:start', { exam_id: examId, locale: 'es' }),
    );
    expectMaybeDone(start.error);
    expect((await api(info(), key(), 'GET', `/exams/${examId}/consent`)).json).toMatchObject({ status: 'pending' });
    expect(await look({ action: 'consent', exam_id: examId })).toMatchObject({ action: 'consent', status: 'pending' });

    const to = `lost-consent-${Date.now()}@paciente.example`;
    const email = await withLostAnswer('POST', /\/consent\/email$/, () =>
      h.call('consent:email', { exam_id: examId, to, patient_name: 'Luis Soto' }),
    );
    expectMaybeDone(email.error);
    expect((await mailTo(to)).filter((m) => m.kind === 'consent_sign')).toHaveLength(1);
  });

  it('signing in person: signed once, and the desk, after one look, tells the patient display it is signed', async () => {
    const examId = await seedExam(info(), key(), { name: 'Lost signature', patient_name: 'MARTA ROJAS' });
    await h.call('consent:start', { exam_id: examId, locale: 'es' });
    await h.call('consent:display-open', { exam_id: examId, signer_name: 'Marta Rojas' });
    const session = await h.call('patient:session', {});
    if (session.state !== 'active') throw new Error('no patient session');
    const sign = await withLostAnswer('POST', /\/consent\/sign-inperson$/, () =>
      h.call('patient:sign', {
        session_id: session.session_id,
        signer_name: 'Marta Rojas',
        document: '9.876.543-3',
        birth_date: null,
        signature_png: signaturePng().toString('base64'),
        accepted: true,
      }),
    );
    expect(sign.error).toBeNull();
    expect(sign.result).toEqual({ ok: true });
    expect((await api(info(), key(), 'GET', `/exams/${examId}/consent`)).json).toMatchObject({
      status: 'signed',
      signing_method: 'in_person',
    });
    // The session ended as after any signature: the patient is not asked to sign again.
    await expect(h.call('patient:session', { session_id: session.session_id })).resolves.toMatchObject({
      state: 'idle',
    });
    expect(await look({ action: 'consent', exam_id: examId })).toMatchObject({ status: 'signed' });
  });

  it('webhook creation and its test ping: one subscription, one ping, maybe_done each, and the look finds them', async () => {
    const { port } = receiver.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/hooks/lost-${Date.now()}`;
    expect(await look({ action: 'webhook_create', url })).toEqual({ action: 'webhook_create', matches: 0 });
    const create = await withLostAnswer('POST', /\/webhooks$/, () =>
      h.call('webhooks:create', { url, events: ['test.ping'], description: 'Lost answer' }),
    );
    expectMaybeDone(create.error);
    const listed = (await api(info(), key(), 'GET', '/webhooks')).json['webhooks'] as { id: string; url: string }[];
    const same = listed.filter((w) => w.url === url);
    expect(same).toHaveLength(1);
    expect(await look({ action: 'webhook_create', url })).toEqual({ action: 'webhook_create', matches: 1 });

    const id = same[0]?.id ?? '';
    const pingsBefore = pings.length;
    const test = await withLostAnswer('POST', /\/webhooks\/[^/]+\/test$/, () => h.call('webhooks:test', { id }));
    expectMaybeDone(test.error);
    expect(pings.length - pingsBefore).toBe(1);
    const deliveries = (await api(info(), key(), 'GET', `/webhooks/${id}/deliveries`)).json['deliveries'] as {
      event_type: string;
    }[];
    expect(deliveries.filter((d) => d.event_type === 'test.ping')).toHaveLength(1);
    expect(await look({ action: 'webhook_test', id })).toMatchObject({
      action: 'webhook_test',
      pings: 1,
      last_at: expect.any(String),
    });
  });

  it('support ticket: one ticket, maybe_done, and the look finds it by its subject', async () => {
    const subject = `No abre el visor ${Date.now()}`;
    const create = await withLostAnswer('POST', /\/support\/tickets$/, () =>
      h.call('support:create', { subject, message: 'El visor queda en blanco.', category: 'viewer' }),
    );
    expectMaybeDone(create.error);
    const tickets = (await api(info(), key(), 'GET', '/support/tickets')).json['tickets'] as { subject: string }[];
    expect(tickets.filter((t) => t.subject === subject)).toHaveLength(1);
    expect(await look({ action: 'ticket_create', subject })).toMatchObject({
      action: 'ticket_create',
      matches: 1,
      last_at: expect.any(String),
    });
  });

  it('exam creation by the upload engine: the orphan search keeps one exam, and the upload ends ready', async () => {
    const watched = join(scene.scratch, 'watched');
    await writeCbctExport(join(watched, 'EXPORT_LOST'), { patientName: 'PAZ^ELENA', volumeSlices: 4, scoutSlices: 1 });
    await h.call('folders:add', {
      path: watched,
      exam_type: 'from_dicom',
      mode: 'review',
      settle_seconds: 1,
      polling: false,
    });
    const item = await waitFor(
      async () => (await h.call('inbox:list', {})).find((i) => i.status === 'review'),
      'the export in the inbox',
    );
    const name = `Lost create ${Date.now()}`;
    await h.call('inbox:update', { id: item.id, fields: { name } });
    proxy.loseNext({ method: 'POST', path: /\/api\/v1\/exams$/ });
    const { job_id } = await h.call('inbox:upload', { id: item.id });
    const job = await waitFor(async () => {
      const j = (await h.call('uploads:list', {})).find((x) => x.id === job_id);
      if (j?.phase === 'failed') throw new Error(`upload failed: ${j.error?.code ?? ''}`);
      return j?.phase === 'ready' ? j : undefined;
    }, 'the upload to be ready');
    expect(proxy.lost.filter((l) => l.method === 'POST' && /\/exams$/.test(l.path))).toHaveLength(1);
    const exams = (await api(info(), key(), 'GET', '/exams?limit=100')).json['exams'] as {
      id: string;
      name: string;
      status: string;
    }[];
    expect(exams.filter((e) => e.name === name)).toEqual([
      expect.objectContaining({ id: job.exam_id, status: 'ready' }),
    ]);
  });
});
