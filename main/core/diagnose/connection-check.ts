// The connection check (`scanbridge doctor`, Settings → "Check the connection"): DNS, TCP, the
// proxy, TLS (the issuer shown), the API key (plan and rate headers), a presigned storage round
// trip and a measured upload speed. Every step records what it saw; the first failure is named and
// said in words, and the steps that depend on it are skipped.
//
// The storage round trip is the only one API v1 offers: it creates a test exam in files mode with
// one file of random bytes and no patient data ("ScanBridge connection check"), PUTs the bytes to
// its presigned URL (which also measures the upload speed) and deletes the exam at once. It costs
// three API calls and leaves an exam.created and exam.deleted event in the account's activity.
import { randomBytes } from 'node:crypto';
import { ApiError } from '../api/http';
import { createApiClient } from '../api/client';
import { netFailureWords } from '../net/failure-words';
import { classifyNetFailure } from '../net/net-failure';
import { CERT_DATE_CODES, judgeDateFailure } from '../net/cert-time';
import { type Network, proxyLabel, type ProxyRoute } from '../net/network';
import type { ConnectionCheckView, ConnectionProblem, ConnectionStep } from '../../../preload/contract';
import { checkProblemWords } from './check-words';
import { lookupHost, putBytes, tcpConnect, tlsHandshake } from './probes';

export type CheckOptions = {
  baseUrl: string | null;
  apiKey: string | null;
  /** The client of the active key (the window's agent), used instead of `apiKey` when given. */
  client?: ReturnType<typeof createApiClient> | null;
  network: Network;
  /** Size of the test upload (default 1 MiB). */
  probeBytes?: number;
  timeoutMs?: number;
  now?: () => Date;
};

export const TEST_EXAM_NAME = 'ScanBridge connection check';

function emptyReport(baseUrl: string | null, now: Date, network: Network): ConnectionCheckView {
  const skipped = { status: 'skipped' as const, ms: null };
  return {
    ok: false,
    failed_step: null,
    api_url: baseUrl,
    checked_at: now.toISOString(),
    dns: { ...skipped, host: null, addresses: [] },
    tcp: { ...skipped, target: null },
    proxy: { ...skipped, url: null, source: null },
    tls: {
      ...skipped,
      used: false,
      issuer: null,
      subject: null,
      valid_to: null,
      protocol: null,
      extra_ca_files: network.trust.extraFiles,
    },
    api_key: { ...skipped, key_kind: null, plan: null, rate: { limit: null, remaining: null, reset_at: null } },
    storage: { ...skipped, host: null, exam_id: null, cleaned_up: false },
    upload_speed: { ...skipped, bytes: 0, bytes_per_second: null },
  };
}

type Failure = { problem: ConnectionProblem; code: string; message: string };

/** A thrown error as a step's failure, classified and worded. */
function failureOf(err: unknown, host: string, proxy: string | null): Failure {
  const net = err instanceof ApiError && err.netFailure ? err.netFailure : classifyNetFailure(err, host, proxy);
  if (net) return { problem: net.kind, code: net.code, message: netFailureWords(net) };
  if (err instanceof ApiError) {
    const problem: ConnectionProblem =
      err.code === 'unauthorized'
        ? 'key_rejected'
        : err.code === 'insufficient_scope' || err.code === 'forbidden'
          ? 'key_not_allowed'
          : err.code === 'limit_exceeded' || err.code === 'plan_required'
            ? 'exam_limit'
            : err.code === 'timeout'
              ? 'unreachable'
              : 'service_error';
    return { problem, code: err.code, message: checkProblemWords(problem, host, proxy) };
  }
  const code = (err as { code?: unknown }).code;
  return {
    problem: 'service_error',
    code: typeof code === 'string' ? code : 'error',
    message: checkProblemWords('service_error', host, proxy),
  };
}

/** Runs one step: its time, its result, or its failure recorded (and the report marked). */
async function step<T>(
  report: ConnectionCheckView,
  name: ConnectionStep,
  run: () => Promise<T>,
  onFail: (err: unknown) => Failure,
): Promise<T | undefined> {
  const started = performance.now();
  try {
    const value = await run();
    report[name].status = 'ok';
    report[name].ms = Math.round(performance.now() - started);
    return value;
  } catch (err) {
    const f = onFail(err);
    Object.assign(report[name], { status: 'failed', ms: Math.round(performance.now() - started), ...f });
    report.failed_step ??= name;
    return undefined;
  }
}

/** Where the first hop goes: the proxy when there is one, else the service. */
function firstHop(service: URL, route: ProxyRoute | null): { host: string; port: number } {
  const u = route ? route.url : service;
  return { host: u.hostname, port: Number(u.port) || (u.protocol === 'https:' ? 443 : 80) };
}

/** Runs the whole check. Never throws: every problem is in the report. */
export async function runConnectionCheck(options: CheckOptions): Promise<ConnectionCheckView> {
  const now = options.now ?? (() => new Date());
  const { network } = options;
  const report = emptyReport(options.baseUrl, now(), network);
  const timeoutMs = options.timeoutMs ?? 15_000;
  if (!options.baseUrl) {
    const message = checkProblemWords('not_configured', '', null);
    Object.assign(report.dns, { status: 'failed', problem: 'not_configured', code: 'no_api_url', message });
    report.failed_step = 'dns';
    return report;
  }
  const service = new URL(options.baseUrl);
  const host = service.host;
  const route = await network.route(options.baseUrl).catch(() => null);
  const proxy = proxyLabel(route);
  const hop = firstHop(service, route);
  const fail = (e: unknown): Failure => failureOf(e, host, proxy);

  report.dns.host = hop.host;
  const addresses = await step(report, 'dns', () => lookupHost(hop.host), fail);
  if (addresses) report.dns.addresses = addresses;
  report.tcp.target = `${hop.host}:${hop.port}`;
  if (report.failed_step) return finish(report);
  await step(report, 'tcp', () => tcpConnect(hop.host, hop.port, timeoutMs), fail);
  if (report.failed_step) return finish(report);

  const agents = network.agents(route, { keepAlive: false });
  try {
    Object.assign(report.proxy, { url: proxy, source: route?.source ?? null });
    report.tls.used = service.protocol === 'https:';
    await tunnelAndTls(report, service, agents, timeoutMs, fail, route !== null);
    if (report.failed_step === 'tls') await judgeCertDates(report, service, agents, timeoutMs, now(), proxy);
    if (report.failed_step) return finish(report);
    const client = await keyStep(report, options, network, fail);
    if (!client || report.failed_step) return finish(report);
    await storageStep(report, client, options.probeBytes ?? 1024 * 1024, network, timeoutMs, proxy);
  } finally {
    agents.http.destroy();
    agents.https.destroy();
  }
  return finish(report);
}

/**
 * A handshake refused on a date (expired, not yet valid): this computer's clock or the certificate?
 * The server's time and the certificate's window decide (net/cert-time.ts, as for every other path).
 */
async function judgeCertDates(
  report: ConnectionCheckView,
  service: URL,
  agents: ReturnType<Network['agents']>,
  timeoutMs: number,
  localNow: Date,
  proxy: string | null,
): Promise<void> {
  const { code, problem } = report.tls;
  if (!code || !problem || !CERT_DATE_CODES.has(code)) return;
  if (problem !== 'cert_invalid' && problem !== 'clock_wrong') return;
  const seen = { kind: problem, code, host: service.host, proxy };
  const { failure, evidence } = await judgeDateFailure(seen, service.origin, agents, {
    timeoutMs,
    now: () => localNow,
  });
  if (evidence) report.tls.valid_to = evidence.validTo.toISOString();
  Object.assign(report.tls, { problem: failure.kind, message: netFailureWords(failure) });
}

function finish(report: ConnectionCheckView): ConnectionCheckView {
  report.ok = report.failed_step === null;
  return report;
}

/** The proxy (its tunnel and login) and the TLS handshake, both seen through one HEAD request. */
async function tunnelAndTls(
  report: ConnectionCheckView,
  service: URL,
  agents: ReturnType<Network['agents']>,
  timeoutMs: number,
  fail: (e: unknown) => Failure,
  proxied: boolean,
): Promise<void> {
  if (!report.tls.used) {
    // Plain http: the proxy's tunnel is still tried (a CONNECT like every call makes).
    if (proxied) await step(report, 'proxy', () => putProbe(service, agents, timeoutMs), fail);
    else report.proxy.status = 'ok';
    return;
  }
  let tunnelFailure: Failure | null = null;
  const cert = await step(
    report,
    'tls',
    () => tlsHandshake(service.origin, agents, timeoutMs),
    (e) => {
      tunnelFailure = fail(e);
      return tunnelFailure;
    },
  );
  const f = tunnelFailure as Failure | null;
  if (f && (f.problem === 'proxy_auth' || f.problem === 'proxy_unreachable')) {
    // The tunnel failed before any TLS: the proxy step failed, TLS was not reached.
    Object.assign(report.proxy, { status: 'failed', ms: report.tls.ms, ...f });
    Object.assign(report.tls, { status: 'skipped', ms: null, problem: undefined, code: undefined, message: undefined });
    report.failed_step = 'proxy';
    return;
  }
  report.proxy.status = 'ok';
  if (cert) {
    report.tls.issuer = cert.issuer;
    report.tls.subject = cert.subject;
    report.tls.valid_to = cert.validTo;
    report.tls.protocol = cert.protocol;
  }
}

/** An http:// service through a proxy: a HEAD of its origin (the tunnel and its login). */
async function putProbe(service: URL, agents: ReturnType<Network['agents']>, timeoutMs: number): Promise<void> {
  const { request } = await import('node:http');
  await new Promise<void>((resolve, reject) => {
    const req = request(`${service.origin}/`, { method: 'HEAD', agent: agents.http, timeout: timeoutMs }, (res) => {
      res.resume();
      resolve();
    });
    req.once('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.once('error', reject);
    req.end();
  });
}

type Client = ReturnType<typeof createApiClient>;

/** GET /me with the key: its plan and the rate headers. */
async function keyStep(
  report: ConnectionCheckView,
  options: CheckOptions,
  network: Network,
  fail: (e: unknown) => Failure,
): Promise<Client | null> {
  if ((!options.apiKey && !options.client) || !options.baseUrl) {
    const message = checkProblemWords('key_rejected', '', null);
    Object.assign(report.api_key, { status: 'failed', problem: 'key_rejected', code: 'no_key', message });
    report.failed_step = 'api_key';
    return null;
  }
  const client =
    options.client ??
    createApiClient({ baseUrl: options.baseUrl, apiKey: options.apiKey ?? '', network, retry: { maxAttempts: 1 } });
  report.api_key.key_kind = client.keyKind;
  const account = await step(report, 'api_key', () => client.account.me(), fail);
  if (!account) return null;
  report.api_key.plan = account.plan;
  // Uploads do not depend on it (the service's clock decides), but a clock that is off is said.
  const offset = client.serviceClock.offsetMs();
  report.clock_skew_ms = offset === null ? null : -offset;
  const rate = client.meter.snapshot();
  report.api_key.rate = { limit: rate.limit, remaining: rate.remaining, reset_at: rate.reset?.toISOString() ?? null };
  return client;
}

/** The presigned round trip: a test exam, a PUT of random bytes (timed), the exam deleted. */
async function storageStep(
  report: ConnectionCheckView,
  client: Client,
  size: number,
  network: Network,
  timeoutMs: number,
  apiProxy: string | null,
): Promise<void> {
  const bytes = randomBytes(size);
  report.upload_speed.bytes = size;
  let examId: string | null = null;
  let storageProxy = apiProxy;
  let putMs: number | null = null;
  const host = new URL(report.api_url ?? 'http://x').host;
  await step(
    report,
    'storage',
    async () => {
      const exam = await client.exams.create({
        name: TEST_EXAM_NAME,
        upload_mode: 'files',
        files: [{ name: 'scanbridge-check.bin', size }],
      });
      examId = exam.id;
      report.storage.exam_id = exam.id;
      const url = exam.upload_urls?.[0]?.url;
      if (!url) throw new ApiError('invalid_response', { serviceMessage: 'no upload URL' });
      report.storage.host = new URL(url).host;
      const route = await network.route(url);
      storageProxy = proxyLabel(route);
      const agents = network.agents(route, { keepAlive: false });
      try {
        const started = performance.now();
        const status = await putBytes(url, bytes, agents, timeoutMs);
        putMs = performance.now() - started;
        if (status < 200 || status >= 300) throw Object.assign(new Error(`storage answered ${status}`), { status });
      } finally {
        agents.http.destroy();
        agents.https.destroy();
      }
    },
    (e) => {
      if (e instanceof Error && 'status' in e)
        return {
          problem: 'storage_refused',
          code: `HTTP ${String(e.status)}`,
          message: checkProblemWords('storage_refused', report.storage.host ?? host, storageProxy),
        };
      return failureOf(e, report.storage.host ?? host, storageProxy);
    },
  );
  if (examId) {
    const id: string = examId;
    report.storage.cleaned_up = await client.exams.remove(id).then(
      () => true,
      () => false,
    );
  }
  if (putMs !== null && report.storage.status === 'ok') {
    const ms: number = putMs;
    report.upload_speed.status = 'ok';
    report.upload_speed.ms = Math.round(ms);
    report.upload_speed.bytes_per_second = Math.round(size / Math.max(ms / 1000, 0.001));
  }
}
