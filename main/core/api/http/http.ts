import got, { type Got, type Response } from 'got';
import { z } from 'zod';
import { judgeDateFailure } from '../../net/cert-time';
import { classifyNetFailure, type NetFailure, neverReachedService } from '../../net/net-failure';
import { proxyLabel, type NetAgents, type Network, type ProxyRoute } from '../../net/network';
import { ApiError, errorFromAnswer } from './api-errors';
import { parseRetryAfter, type RateMeter } from './rate-meter';
import type { ServiceClock } from './service-clock';
import { backoffDelayMs, isRetryableFault, type RetryPolicy } from './retry';

/** Kinds of calls, each with its own time-out. */
export type CallKind = 'read' | 'write' | 'long' | 'binary';
export type Timeouts = Record<CallKind, number>;

/** Quick reads 15 s, writes 30 s, process-zip 330 s (the service allows itself 300 s), downloads 60 s. */
export const DEFAULT_TIMEOUTS: Timeouts = { read: 15_000, write: 30_000, long: 330_000, binary: 60_000 };

/** On a 429: wait for Retry-After and try again, or fail at once with RateLimitedError. */
export type RateLimitMode = 'wait' | 'throw';

/** Per-call options accepted by every client function. */
export type CallOptions = {
  signal?: AbortSignal;
  onRateLimit?: RateLimitMode;
  /** Told before each wait this call makes (a 429 waited out, or a transient fault retried). */
  onRetry?: (info: RetryInfo) => void;
};

/** Why a call waits before trying again, and for how long. */
export type RetryInfo = { reason: 'rate_limited' | 'transient'; delayMs: number; code: string };

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | undefined;

/** One API call as the resource modules describe it. */
export type RequestSpec = {
  method: HttpMethod;
  /** Path below the base URL, e.g. `exams/exm_1/confirm`, built by `apiPath`. */
  path: ApiPath;
  query?: Record<string, QueryValue>;
  body?: unknown;
  kind: CallKind;
  /** Safe to repeat after a transient fault (reads, confirm, deletes, mark-read…). */
  idempotent: boolean;
};

/** A binary answer (thumbnail, PDF). */
export type BinaryAnswer = { bytes: Uint8Array; contentType: string };

/** What the transport reports, for logs and diagnostics. Paths carry ids only, never patient data. */
export type TransportEvent =
  | { type: 'attempt'; method: HttpMethod; path: string; attempt: number; at: Date }
  | { type: 'retry'; method: HttpMethod; path: string; attempt: number; delayMs: number; code: string }
  | { type: 'rate_limit_wait'; method: HttpMethod; path: string; waitMs: number }
  /** The service answered (any status): it can be reached. */
  | { type: 'answered'; method: HttpMethod; path: string; status: number }
  /** An attempt got no answer: the connection failed or timed out (`net`: what the network module understood). */
  | { type: 'unreached'; method: HttpMethod; path: string; code: 'network_error' | 'timeout'; net: NetFailure | null };

export type TransportOptions = {
  baseUrl: string;
  apiKey: string;
  userAgent: string;
  meter: RateMeter;
  /** Fed every answer's Date header: the service's clock as this computer sees it. */
  clock?: ServiceClock;
  timeouts: Timeouts;
  retry: RetryPolicy;
  onRateLimit: RateLimitMode;
  /** How many times one call may wait out a 429 before giving up with RateLimitedError. */
  maxRateLimitWaits: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  onEvent?: (event: TransportEvent) => void;
  /** How to reach the service: its proxy and the CAs to trust. */
  network: Network;
};

/** The shared request machinery every resource module is built on. */
export type Transport = {
  json<S extends z.ZodType>(spec: RequestSpec, schema: S, options?: CallOptions): Promise<z.output<S>>;
  bytes(spec: RequestSpec, options?: CallOptions): Promise<BinaryAnswer>;
};

/** A path below the base URL, built only by `apiPath` (so no caller's value can change it). */
export type ApiPath = string & { readonly __apiPath: unique symbol };

/** Why a value cannot be a path segment, or null when it can. */
export function badSegment(value: string | number): string | null {
  const s = String(value);
  if (s === '') return 'is empty';
  // URL parsers resolve dot segments, escaped (`%2e`) or not, so they could reach another route.
  if (s === '.' || s === '..') return 'is a dot segment';
  return null;
}

/**
 * The path of an API call from its segments, e.g. `apiPath('exams', id, 'extras', 2, 'confirm')`.
 * Every segment is percent-encoded (a `/`, `?`, `#` or `%` in an id stays inside its segment), and
 * an empty or dot segment is refused before any request is sent (nothing reaches the service).
 */
export function apiPath(...segments: readonly (string | number)[]): ApiPath {
  for (const s of segments) {
    const why = badSegment(s);
    if (why)
      throw new ApiError('validation_error', {
        details: [{ field: 'id', message: `a path segment ${why}` }],
        mayHaveReachedService: false,
      });
  }
  return segments.map((s) => encodeURIComponent(String(s))).join('/') as ApiPath;
}

function errorCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err) {
    const { code } = err;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * The route the service is reached on: its pools, the proxy's label and the route itself. Calls that
 * are safe to repeat share kept-alive connections; the others (`oneShot`) each open their own.
 */
type Routed = { agents: NetAgents; oneShot: NetAgents; proxy: string | null; route: ProxyRoute | null };

/**
 * The network failure behind a got failure, its certificate dates judged (a wrong clock told from
 * a certificate really out of date, net/cert-time.ts) on fresh pools of the same route.
 */
async function networkFailureOf(
  err: unknown,
  routed: Routed,
  at: { origin: string; host: string; network: Network; timeoutMs: number; signal: AbortSignal | undefined },
): Promise<NetFailure | null> {
  if (at.signal?.aborted) return null;
  const seen = classifyNetFailure(err, at.host, routed.proxy);
  if (!seen || (seen.kind !== 'cert_invalid' && seen.kind !== 'clock_wrong')) return seen;
  const agents = at.network.agents(routed.route, { keepAlive: false });
  try {
    return (await judgeDateFailure(seen, at.origin, agents, { timeoutMs: at.timeoutMs })).failure;
  } finally {
    agents.http.destroy();
    agents.https.destroy();
  }
}

/** Turns a got failure (no HTTP answer) into the client's exception. */
function failureToError(
  err: unknown,
  spec: RequestSpec,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  netFailure: NetFailure | null,
): ApiError {
  const init = { method: spec.method, path: spec.path, cause: err };
  const code = errorCode(err);
  if (signal?.aborted || code === 'ERR_ABORTED') return new ApiError('aborted', init);
  // A call that is not safe to repeat and may have reached the service may also have been carried
  // out: it is never retried, and the caller hears that its outcome is unknown.
  if (code === 'ETIMEDOUT') return new ApiError('timeout', { ...init, timeoutMs, outcomeUnknown: !spec.idempotent });
  const mayHaveReachedService =
    !(code !== undefined && NEVER_SENT.has(code)) && !(netFailure && neverReachedService(netFailure));
  const networkCode = netFailure?.code ?? code;
  return new ApiError('network_error', {
    ...init,
    ...(networkCode !== undefined ? { networkCode } : {}),
    ...(netFailure ? { netFailure } : {}),
    mayHaveReachedService,
    outcomeUnknown: !spec.idempotent && mayHaveReachedService,
  });
}

function parseErrorBody(body: Buffer): unknown {
  try {
    return parseJsonBody(body);
  } catch {
    return undefined;
  }
}

function parseJsonBody(body: Buffer): unknown {
  const text = body.toString('utf8');
  if (text.trim() === '') return {};
  return JSON.parse(text) as unknown;
}

/** got as the transport drives it: it neither retries nor throws on an HTTP error, the transport decides. */
function wireClient(options: Pick<TransportOptions, 'baseUrl' | 'apiKey' | 'userAgent'>): Got {
  return got.extend({
    prefixUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: {
      authorization: `Bearer ${options.apiKey}`,
      'user-agent': options.userAgent,
      accept: 'application/json',
    },
    retry: { limit: 0 },
    throwHttpErrors: false,
    responseType: 'buffer',
  });
}

/** A successful answer's body as the call's schema reads it; anything else is `invalid_response`. */
function decodeJson<S extends z.ZodType>(res: Response<Buffer>, spec: RequestSpec, schema: S): z.output<S> {
  let body: unknown;
  try {
    body = parseJsonBody(res.body);
  } catch (err) {
    throw new ApiError('invalid_response', {
      status: res.statusCode,
      method: spec.method,
      path: spec.path,
      serviceMessage: 'body is not JSON',
      cause: err,
    });
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError('invalid_response', {
      status: res.statusCode,
      method: spec.method,
      path: spec.path,
      serviceMessage: z.prettifyError(parsed.error),
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/** The bytes as a view on got's buffer (no copy), and the media type without its parameters. */
function binaryAnswer(res: Response<Buffer>): BinaryAnswer {
  const body = res.body;
  return {
    bytes: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
    contentType:
      (res.headers['content-type'] ?? 'application/octet-stream').split(';')[0]?.trim() ?? 'application/octet-stream',
  };
}

/**
 * The base URL's route, looked up once (a PAC answer does not change between calls) and looked up
 * again only after a failed look-up.
 */
function routeOnce(options: Pick<TransportOptions, 'baseUrl' | 'network'>): () => Promise<Routed> {
  let routed: Promise<Routed> | null = null;
  return () => {
    routed ??= options.network.route(options.baseUrl).then(
      // A server closes an idle kept-alive connection when it likes, and a request written onto it at
      // that moment dies unanswered. A call that is safe to repeat is simply repeated; a call that is
      // not would then have an unknown outcome, so it never goes out on a connection used before.
      (r) => ({
        agents: options.network.agents(r),
        oneShot: options.network.agents(r, { keepAlive: false }),
        proxy: proxyLabel(r),
        route: r,
      }),
      (e: unknown) => {
        routed = null;
        throw e;
      },
    );
    return routed;
  };
}

/** Builds the transport: got for the wire, retries, 429 handling and the meter done here. */
export function createTransport(options: TransportOptions): Transport {
  const client = wireClient(options);
  const { host, origin } = new URL(options.baseUrl);
  const service = { host, origin, network: options.network };
  const route = routeOnce(options);
  const emit = (e: TransportEvent): void => {
    try {
      options.onEvent?.(e);
    } catch {
      // Diagnostics must never break a call.
    }
  };

  async function send(spec: RequestSpec, callOptions: CallOptions): Promise<Response<Buffer>> {
    const mode = callOptions.onRateLimit ?? options.onRateLimit;
    const signal = callOptions.signal;
    const timeoutMs = options.timeouts[spec.kind];
    const path = spec.path.replace(/^\/+/, '');
    const searchParams = new URLSearchParams();
    for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) searchParams.set(k, String(v));
    let attempts = 0;
    let rateLimitWaits = 0;
    for (;;) {
      if (signal?.aborted) throw new ApiError('aborted', { method: spec.method, path: spec.path });
      // After a 429 nothing is sent before its Retry-After, whichever call asks.
      const gate = options.meter.waitMs();
      if (gate > 0) {
        if (mode === 'throw')
          throw new ApiError('rate_limited', {
            status: 429,
            method: spec.method,
            path: spec.path,
            retryAfterSeconds: gate / 1000,
          });
        emit({ type: 'rate_limit_wait', method: spec.method, path: spec.path, waitMs: gate });
        callOptions.onRetry?.({ reason: 'rate_limited', delayMs: gate, code: 'rate_limited' });
        await options.sleep(gate, signal);
        continue;
      }
      attempts += 1;
      emit({ type: 'attempt', method: spec.method, path: spec.path, attempt: attempts, at: new Date() });
      let res: Response<Buffer>;
      const on = await route();
      const agents = spec.idempotent ? on.agents : on.oneShot;
      try {
        res = await client(path, {
          agent: { http: agents.http, https: agents.https },
          method: spec.method,
          searchParams: searchParams.size > 0 ? searchParams : undefined,
          json: spec.body,
          timeout: { request: timeoutMs },
          signal,
          responseType: 'buffer',
        });
      } catch (err) {
        const net = await networkFailureOf(err, on, { ...service, timeoutMs, signal });
        const failure = failureToError(err, spec, timeoutMs, signal, net);
        if (failure.code === 'network_error' || failure.code === 'timeout')
          emit({ type: 'unreached', method: spec.method, path: spec.path, code: failure.code, net });
        await retryOrThrow(failure, spec, attempts - rateLimitWaits, callOptions);
        continue;
      }
      options.meter.updateFromHeaders(res.headers);
      options.clock?.observe(res.headers.date);
      emit({ type: 'answered', method: spec.method, path: spec.path, status: res.statusCode });
      if (res.statusCode >= 200 && res.statusCode < 300) return res;
      const failure = errorFromAnswer({
        status: res.statusCode,
        body: parseErrorBody(res.body),
        retryAfterSeconds: parseRetryAfter(res.headers['retry-after'], new Date()),
        method: spec.method,
        path: spec.path,
      });
      if (failure.code === 'rate_limited') {
        options.meter.recordRateLimited(failure.retryAfterSeconds);
        // A refused call was not carried out, so waiting it out is safe even for non-idempotent calls.
        if (mode === 'wait' && rateLimitWaits < options.maxRateLimitWaits) {
          rateLimitWaits += 1;
          continue;
        }
        throw failure;
      }
      await retryOrThrow(failure, spec, attempts - rateLimitWaits, callOptions);
    }
  }

  /**
   * Returns after the backoff sleep when `failure` may be retried; throws it otherwise. `attempts`
   * counts the attempts that were not refused with 429.
   */
  async function retryOrThrow(
    failure: ApiError,
    spec: RequestSpec,
    attempts: number,
    callOptions: CallOptions,
  ): Promise<void> {
    if (failure.code === 'aborted') throw failure;
    if (!isRetryableFault(failure, spec.idempotent) || attempts >= options.retry.maxAttempts) throw failure;
    const delayMs = backoffDelayMs(attempts - 1, options.retry, options.random);
    emit({ type: 'retry', method: spec.method, path: spec.path, attempt: attempts, delayMs, code: failure.code });
    callOptions.onRetry?.({ reason: 'transient', delayMs, code: failure.code });
    await options.sleep(delayMs, callOptions.signal);
  }

  return {
    async json(spec, schema, callOptions = {}) {
      return decodeJson(await send(spec, callOptions), spec, schema);
    },
    async bytes(spec, callOptions = {}) {
      return binaryAnswer(await send(spec, callOptions));
    },
  };
}
