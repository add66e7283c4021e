// The browser-mode server (`scanbridge serve`, the demo, end-to-end tests): the built renderer,
// the contract as `POST /rpc/<method>`, and events as Server-Sent Events on `GET /events`, on
// 127.0.0.1 only, behind the Host/Origin/token guards of guards.ts.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ContractError } from '../../../preload/contract';
import type { ContractHost } from '../agent/host/contract-host';
import { isMethodName, toContractError } from '../agent/host/contract-host';
import { SECURITY_HEADERS } from './csp';
import { bearerToken, hostAllowed, newToken, originAllowed, tokenMatches } from './guards';
import { EventStreams } from './sse';
import { lookupStatic, sendFile } from './static-files';

const MAX_BODY_BYTES = 32 * 1024 * 1024; // a report PDF (≤ 20 MB) crosses as base64

export type BridgeOptions = {
  host: ContractHost;
  /** The built renderer (renderer/dist). */
  staticDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** A fixed token (tests); a random one otherwise. */
  token?: string;
  /** SSE keep-alive comment interval. */
  pingMs?: number;
  /**
   * The patient display's page (informed consent): a token bound to one consent session may call
   * these methods only, and only on that session; it opens no event stream.
   */
  patient?: { sessionOf(token: string | null): string | null; methods: readonly string[] };
};

export type Bridge = {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
};

/** HTTP status for an error code; the window reads the code, the status is for tools and logs. */
export function statusForCode(code: string): number {
  switch (code) {
    case 'invalid_args':
    case 'validation_error':
    case 'bad_request':
      return 400;
    case 'bad_token':
      return 401;
    case 'forbidden_host':
    case 'forbidden_origin':
    case 'forbidden_path':
    case 'forbidden_method':
      return 403;
    case 'unknown_method':
    case 'not_found':
      return 404;
    case 'method_not_allowed':
      return 405;
    case 'conflict':
      return 409;
    case 'payload_too_large':
      return 413;
    case 'unsupported_media_type':
      return 415;
    case 'rate_limited':
      return 429;
    case 'internal':
      return 500;
    default:
      // The request was fine; the operation failed for a reason the code names (no_key, unauthorized from the service…).
      return 422;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

function sendError(res: ServerResponse, error: ContractError): void {
  sendJson(res, statusForCode(error.code), { error });
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      throw Object.assign(new Error('body too large'), {
        wire: { code: 'payload_too_large', message: 'The request body is too large.' },
      });
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  if (type !== '' && type !== 'application/json') {
    throw Object.assign(new Error('bad type'), {
      wire: { code: 'unsupported_media_type', message: 'Send the arguments as application/json.' },
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw Object.assign(new Error('bad json'), {
      wire: { code: 'invalid_args', message: 'The request body is not valid JSON.' },
    });
  }
}

function wireOf(e: unknown): ContractError | null {
  const wire = (e as { wire?: ContractError } | null)?.wire;
  return wire && typeof wire.code === 'string' ? wire : null;
}

/** Starts the server on 127.0.0.1 and resolves once it listens. */
export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  const token = options.token ?? newToken();
  const streams = new EventStreams(options.pingMs);
  let port = 0;

  const unsubscribe = options.host.subscribe((name, payload) => streams.broadcast(name, payload));

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!hostAllowed(req.headers.host, port))
      return sendError(res, { code: 'forbidden_host', message: 'Host not allowed.' });
    if (!originAllowed(req.headers.origin, port))
      return sendError(res, { code: 'forbidden_origin', message: 'Origin not allowed.' });
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1));
    const method = req.method ?? 'GET';

    if (rawPath.startsWith('/rpc/')) {
      if (method !== 'POST') return sendError(res, { code: 'method_not_allowed', message: 'Use POST.' });
      const presented = bearerToken(req.headers.authorization);
      // A patient page's token: its own few methods, always on its own session.
      const patientSession = tokenMatches(presented, token) ? null : (options.patient?.sessionOf(presented) ?? null);
      if (!tokenMatches(presented, token) && patientSession === null)
        return sendError(res, { code: 'bad_token', message: 'Missing or wrong session token.' });
      let name: string;
      try {
        name = decodeURIComponent(rawPath.slice('/rpc/'.length));
      } catch {
        return sendError(res, { code: 'unknown_method', message: 'Unknown method.' });
      }
      if (patientSession !== null && !options.patient?.methods.includes(name))
        return sendError(res, { code: 'forbidden_method', message: 'This page may not do that.' });
      if (!isMethodName(name))
        return sendError(res, { code: 'unknown_method', message: `Unknown method ${name.slice(0, 100)}.` });
      let args: unknown;
      try {
        args = await readJsonBody(req);
      } catch (e) {
        return sendError(res, wireOf(e) ?? { code: 'bad_request', message: 'Could not read the request.' });
      }
      if (patientSession !== null) {
        if (typeof args !== 'object' || args === null || Array.isArray(args))
          return sendError(res, { code: 'invalid_args', message: 'Send the arguments as a JSON object.' });
        args = { ...args, session_id: patientSession };
      }
      try {
        const result = await options.host.call(name, args);
        return sendJson(res, 200, { result: result ?? null });
      } catch (e) {
        return sendError(res, toContractError(e));
      }
    }

    if (rawPath === '/events') {
      if (method !== 'GET') return sendError(res, { code: 'method_not_allowed', message: 'Use GET.' });
      const presented = query.get('token') ?? bearerToken(req.headers.authorization);
      if (!tokenMatches(presented, token))
        return sendError(res, { code: 'bad_token', message: 'Missing or wrong session token.' });
      streams.open(res, { 'X-Content-Type-Options': 'nosniff' });
      return;
    }

    if (method !== 'GET' && method !== 'HEAD')
      return sendError(res, { code: 'method_not_allowed', message: 'Use GET.' });
    const found = await lookupStatic(options.staticDir, rawPath);
    switch (found.kind) {
      case 'bad_path':
        return sendError(res, { code: 'bad_request', message: 'Malformed path.' });
      case 'forbidden':
        return sendError(res, { code: 'forbidden_path', message: 'Path not allowed.' });
      case 'not_found':
        return sendError(res, { code: 'not_found', message: 'No such file.' });
      case 'file':
        return sendFile(res, found, method === 'HEAD', !found.fallback && rawPath.startsWith('/assets/'));
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendError(res, { code: 'internal', message: 'Internal error.' });
      else res.destroy();
    });
  });
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    async close() {
      unsubscribe();
      streams.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
