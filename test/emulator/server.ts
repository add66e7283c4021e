import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { App, ApiHandler, AuthInfo, EmulatorConfig, RawHandler, Reply } from './core/app';
import { Clock } from './core/clock';
import { Events } from './core/events';
import { Faults } from './core/faults';
import { ApiError, discardRest, parseJson, readBody, sendError, sendJson } from './core/http';
import { newId } from './core/ids';
import { ALL_SCOPES, PLANS, SANDBOX_REQUESTS_PER_HOUR } from './core/plans';
import { RateLimiter } from './core/rate-limit';
import { Router } from './core/router';
import type { Account, ApiKeyRecord, Plan, State } from './core/state';
import { Store } from './core/store';
import { tlsMaterial } from './core/tls';
import { registerAll } from './routes';

export type EmulatorInfo = {
  base_url: string;
  control_url: string;
  /** With `--tls`: the PEM file of the CA that signed the server's certificate. */
  ca_file?: string;
  keys: Record<'free' | 'pro' | 'clinica' | 'ultra' | 'sandbox' | 'readonly', string>;
};

export type RunningEmulator = { info: EmulatorInfo; app: App; close: () => Promise<void> };

const CLINICS: Record<Plan, { name: string; slug: string; email: string }> = {
  free: { name: 'Consulta Dental Los Andes', slug: 'dental-los-andes', email: 'contacto@dentallosandes.cl' },
  pro: { name: 'Clínica Radiológica Ñuñoa', slug: 'radiologica-nunoa', email: 'imagenes@radiologicanunoa.cl' },
  clinica: { name: 'Centro Imagenológico Providencia', slug: 'centro-providencia', email: 'admin@cip.cl' },
  ultra: { name: 'Red Dental del Pacífico', slug: 'red-dental-pacifico', email: 'ti@reddentalpacifico.com' },
};

function liveKey(): string {
  return `cbct_live_${randomBytes(16).toString('hex')}`;
}

/** The state of a fresh `--data` folder: one account per plan and the six contract keys. */
function initialState(now: string): State {
  const accounts: Account[] = [];
  const keys: ApiKeyRecord[] = [];
  for (const plan of Object.keys(PLANS) as Plan[]) {
    const c = CLINICS[plan];
    const account: Account = {
      id: newId('usr_'),
      email: c.email,
      plan,
      clinic_name: c.name,
      clinic_slug: c.slug,
      storage_limit_bytes: PLANS[plan].storageBytes,
      exam_limit: PLANS[plan].examLimit,
      created_at: now,
    };
    accounts.push(account);
    keys.push({ key: liveKey(), account_id: account.id, scopes: [...ALL_SCOPES], sandbox: false, label: plan });
    if (plan === 'pro') {
      keys.push({
        key: `cbct_test_${randomBytes(16).toString('hex')}`,
        account_id: account.id,
        scopes: [...ALL_SCOPES],
        sandbox: true,
        label: 'sandbox',
      });
      keys.push({
        key: liveKey(),
        account_id: account.id,
        scopes: ['exams:read', 'account:read'],
        sandbox: false,
        label: 'readonly',
      });
    }
  }
  return {
    version: 1,
    signing_secret: randomBytes(32).toString('hex'),
    accounts,
    keys,
    exams: [],
    deleted_exam_ids: [],
    webhooks: [],
    deliveries: [],
    pending_deliveries: [],
    referrers: [],
    templates: [],
    tickets: [],
    activity: [],
    notifications: [],
    mail: [],
  };
}

/** Starts the emulator on 127.0.0.1 and resolves once it listens. */
export async function startEmulator(config: EmulatorConfig): Promise<RunningEmulator> {
  const clock = new Clock(config.timeScale, (name, err) => {
    process.stderr.write(
      `emulator: scheduled task ${name} failed: ${err instanceof Error ? err.message : String(err)}\n`,
    );
  });
  const store = Store.open(config.dataDir, () => initialState(new Date().toISOString()));
  clock.restoreOffset(store.state.clock_offset_ms ?? 0);
  const events = new Events(store, clock);
  const faults = new Faults();
  const rate = new RateLimiter(clock);
  let origin = '';
  const startHooks: (() => void)[] = [];
  const app: App = {
    config,
    store,
    clock,
    events,
    faults,
    rate,
    origin: () => origin,
    api: new Router<ApiHandler>(),
    control: new Router<RawHandler>(),
    public: new Router<RawHandler>(),
    onStart: (fn) => startHooks.push(fn),
  };
  registerAll(app);

  const sockets = new Set<Socket>();
  const listener: RequestListener = (req, res) => {
    void handle(app, req, res).catch((err: unknown) => {
      process.stderr.write(
        `emulator: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      if (!res.headersSent) sendError(res, new ApiError(500, 'internal_error', 'Unexpected server error'));
      else res.destroy();
    });
  };
  const tls = config.tls ? tlsMaterial(config.dataDir) : null;
  const server: Server = tls ? createTlsServer({ key: tls.key, cert: tls.cert }, listener) : createServer(listener);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.headersTimeout = 60_000;
  server.requestTimeout = 0;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  origin = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  for (const fn of startHooks) fn();

  const keyOf = (label: string): string => store.state.keys.find((k) => k.label === label)?.key ?? '';
  const info: EmulatorInfo = {
    base_url: `${origin}/api/v1`,
    control_url: `${origin}/__emulator`,
    ...(tls ? { ca_file: tls.caFile } : {}),
    keys: {
      free: keyOf('free'),
      pro: keyOf('pro'),
      clinica: keyOf('clinica'),
      ultra: keyOf('ultra'),
      sandbox: keyOf('sandbox'),
      readonly: keyOf('readonly'),
    },
  };
  return {
    info,
    app,
    close: async () => {
      clock.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      store.save();
    },
  };
}

function authenticate(app: App, req: IncomingMessage): AuthInfo {
  const header = req.headers.authorization ?? '';
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m)
    throw new ApiError(401, 'unauthorized', 'Missing or malformed Authorization header (expected "Bearer <API key>")');
  const key = app.store.state.keys.find((k) => k.key === m[1]);
  const account = key && app.store.state.accounts.find((a) => a.id === key.account_id);
  if (!key || !account) throw new ApiError(401, 'unauthorized', 'Unknown API key');
  return { key, account, sandbox: key.sandbox };
}

/** Resolves once the request's body has been read to its end (or the request is gone). */
function drained(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    if (req.readableEnded) return resolve();
    req.once('end', () => resolve());
    req.once('close', () => resolve());
    req.resume();
  });
}

async function applyFault(
  app: App,
  target: 'storage' | 'api',
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  const fault = app.faults.take(target, req.method ?? 'GET', req.url ?? '/');
  if (!fault) return false;
  switch (fault.mode) {
    case 'error500':
      // The body is read to its end first: answering mid-upload on a closing connection resets it
      // (through a proxy's tunnel the client then sees ECONNRESET, not the 500 this fault stands for).
      await drained(req);
      sendError(res, new ApiError(500, 'internal_error', 'Injected fault: internal error'));
      return true;
    case 'reset':
      req.socket.destroy();
      return true;
    case 'expire':
      req.resume();
      sendError(res, new ApiError(403, 'url_expired', 'The presigned URL has expired'));
      return true;
    case 'stall':
      // Hold the request open well past any client time-out; the client gives up first.
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 120_000);
        t.unref();
        req.socket.once('close', () => {
          clearTimeout(t);
          resolve();
        });
      });
      if (!res.writableEnded) req.socket.destroy();
      return true;
  }
}

function writeReply(res: ServerResponse, reply: Reply): void {
  if (reply === null) return;
  sendJson(res, reply.status ?? 200, reply.body, reply.headers);
}

async function handle(app: App, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  let path = req.url ?? '/';
  try {
    const url = parseRequestUrl(req.url);
    path = url.pathname;
    if (path === '/api/v1' || path.startsWith('/api/v1/')) {
      if (await applyFault(app, 'api', req, res)) return;
      await handleApi(app, req, res, method, path.slice('/api/v1'.length) || '/', url.searchParams);
      return;
    }
    if (path.startsWith('/__emulator/')) {
      const m = app.control.match(method, path.slice('/__emulator'.length));
      if (!m) throw new ApiError(404, 'not_found', 'No such control endpoint');
      if ('methodNotAllowed' in m) throw new ApiError(405, 'method_not_allowed', `Use ${m.allowed.join(', ')}`);
      // Saved before answering: a change the caller saw acknowledged survives a kill -9.
      const reply = await m.handler({ req, res, params: m.params, query: url.searchParams });
      app.store.save();
      writeReply(res, reply);
      return;
    }
    if (path.startsWith('/storage/') && (await applyFault(app, 'storage', req, res))) return;
    const m = app.public.match(method, path);
    if (!m) throw new ApiError(404, 'not_found', 'Not found');
    if ('methodNotAllowed' in m) throw new ApiError(405, 'method_not_allowed', `Use ${m.allowed.join(', ')}`);
    writeReply(res, await m.handler({ req, res, params: m.params, query: url.searchParams }));
  } catch (err) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (err instanceof ApiError) {
      discardRest(req);
      sendError(res, err);
      return;
    }
    process.stderr.write(
      `emulator: ${method} ${path} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    sendError(res, new ApiError(500, 'internal_error', 'Unexpected server error'));
  }
}

async function handleApi(
  app: App,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  path: string,
  query: URLSearchParams,
): Promise<void> {
  const auth = authenticate(app, req);
  const limit = auth.sandbox ? SANDBOX_REQUESTS_PER_HOUR : PLANS[auth.account.plan].requestsPerHour;
  const decision = app.rate.take(auth.key.key, limit);
  const rateHeaders = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(Math.ceil(decision.resetAt / 1000)),
  };
  for (const [k, v] of Object.entries(rateHeaders)) res.setHeader(k, v);
  if (!decision.allowed) {
    throw new ApiError(
      429,
      'rate_limited',
      `Rate limit of ${decision.limit} requests per hour exceeded; retry in ${decision.retryAfterSeconds} s`,
      { retry_after_seconds: decision.retryAfterSeconds },
      { 'Retry-After': String(decision.retryAfterSeconds) },
    );
  }
  const m = app.api.match(method, path);
  if (!m) throw new ApiError(404, 'not_found', `No endpoint ${method} /api/v1${path}`);
  if ('methodNotAllowed' in m)
    throw new ApiError(405, 'method_not_allowed', `Use ${m.allowed.join(', ')} on /api/v1${path}`);
  if (m.meta.scope && !auth.key.scopes.includes(m.meta.scope)) {
    throw new ApiError(403, 'insufficient_scope', `This API key lacks the scope ${m.meta.scope}`, {
      required_scope: m.meta.scope,
    });
  }
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const body = hasBody ? parseJson(await readBody(req)) : undefined;
  let reply: Reply;
  try {
    reply = await m.handler({ req, res, params: m.params, query, body, auth });
  } finally {
    // Saved before answering: a change the caller saw acknowledged survives a kill -9.
    if (hasBody) app.store.save();
  }
  writeReply(res, reply);
}

/** The request target as a URL; a target that is not a valid path (e.g. `//`) is a 400, not a crash. */
function parseRequestUrl(target: string | undefined): URL {
  try {
    return new URL(target ?? '/', 'http://127.0.0.1');
  } catch {
    throw new ApiError(400, 'validation_error', 'Malformed request target', {
      details: [{ field: 'path', message: 'not a valid URL path' }],
    });
  }
}
