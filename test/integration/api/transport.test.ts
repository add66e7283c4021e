import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientConfigError, createApiClient } from '@main/core/api/client';
import type { ApiError } from '@main/core/api/http/api-errors';
import { APP_VERSION } from '@main/core/api/http/user-agent';

/** A GET /me answer as the spec describes it. */
const me = {
  user_id: 'u',
  email: 'e@x.cl',
  plan: 'pro',
  scopes: ['exams:read'],
  storage: { used_bytes: 1, limit_bytes: 2, used_percent: 50 },
  exams: { count: 0, limit: 5 },
};

// What the emulator cannot show: the request headers the client sends, and its handling of answers
// a real service might give that the emulator never does. A plain local HTTP server plays the
// service here, over real sockets.
describe('client transport: headers and tolerant parsing', () => {
  let server: Server;
  let base = '';
  const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const replies = new Map<string, { status: number; type: string; body: string | Buffer }>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (d: string) => (body += d));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        const r = replies.get(`${req.method} ${req.url}`) ?? {
          status: 404,
          type: 'application/json',
          body: '{"error":{"code":"not_found","message":"no"}}',
        };
        res.writeHead(r.status, {
          'Content-Type': r.type,
          'X-RateLimit-Limit': '1000',
          'X-RateLimit-Remaining': '42',
          'X-RateLimit-Reset': '2000000000',
        });
        res.end(r.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends Bearer auth, a ScanBridge User-Agent with the version, and JSON bodies', async () => {
    replies.set('GET /api/v1/me', { status: 200, type: 'application/json', body: JSON.stringify(me) });
    replies.set('POST /api/v1/referrers', {
      status: 201,
      type: 'application/json',
      body: JSON.stringify({ id: 'rfr_1', name: 'Dra. Núñez' }),
    });
    const client = createApiClient({ baseUrl: base, apiKey: 'cbct_live_abc' });
    await client.account.me();
    await client.referrers.create({ name: 'Dra. Núñez' });
    const [get, post] = seen.slice(-2);
    expect(get?.headers.authorization).toBe('Bearer cbct_live_abc');
    expect(get?.headers['user-agent']).toMatch(
      new RegExp(`^ScanBridge/${APP_VERSION.replace(/\./g, '\\.')} \\(Node \\d+`),
    );
    expect(post?.headers['content-type']).toContain('application/json');
    expect(JSON.parse(post?.body ?? '')).toEqual({ name: 'Dra. Núñez' });
    expect(client.meter.snapshot().remaining).toBe(42);
  });

  it('keeps unknown fields and accepts a missing optional field', async () => {
    replies.set('GET /api/v1/exams/exm_1', {
      status: 200,
      type: 'application/json',
      body: JSON.stringify({ id: 'exm_1', status: 'archived', future_field: { a: 1 } }),
    });
    const exam = await createApiClient({ baseUrl: base, apiKey: 'k' }).exams.get('exm_1');
    expect(exam.status).toBe('archived');
    expect(exam['future_field']).toEqual({ a: 1 });
    expect(exam.share_url).toBeUndefined();
  });

  it('rejects a success answer missing what the spec guarantees with InvalidResponseError', async () => {
    replies.set('GET /api/v1/me', { status: 200, type: 'application/json', body: JSON.stringify({ plan: 'pro' }) });
    const err = await createApiClient({ baseUrl: base, apiKey: 'k' })
      .account.me()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'invalid_response' });
    expect((err as ApiError).code).toBe('invalid_response');
    replies.set('GET /api/v1/me', { status: 200, type: 'text/html', body: '<html>maintenance</html>' });
    await expect(createApiClient({ baseUrl: base, apiKey: 'k' }).account.me()).rejects.toMatchObject({
      code: 'invalid_response',
    });
  });

  it('encodes ids into the path so they cannot change the endpoint', async () => {
    await createApiClient({ baseUrl: base, apiKey: 'k' })
      .exams.get('../me?x=1')
      .catch(() => undefined);
    expect(seen.at(-1)?.url).toBe('/api/v1/exams/..%2Fme%3Fx%3D1');
  });

  it('refuses an unusable base URL or key before any request', () => {
    expect(() => createApiClient({ baseUrl: 'not a url', apiKey: 'k' })).toThrow(ClientConfigError);
    expect(() => createApiClient({ baseUrl: 'ftp://x/api/v1', apiKey: 'k' })).toThrow(ClientConfigError);
    expect(() => createApiClient({ baseUrl: base, apiKey: 'key\r\nX-Evil: 1' })).toThrow(ClientConfigError);
    expect(() => createApiClient({ baseUrl: base, apiKey: '' })).toThrow(ClientConfigError);
  });
});

// A server may close an idle kept-alive connection at the moment a request is written onto it; the
// request then dies unanswered. This server does it every time: it drops any connection on which a
// second request arrives, without answering it.
describe('client transport: connections a server closes while idle', () => {
  let server: Server;
  let base = '';
  const seen: { method: string; url: string; onReusedConnection: boolean }[] = [];

  beforeAll(async () => {
    const served = new WeakMap<object, number>();
    server = createServer((req, res) => {
      const before = served.get(req.socket) ?? 0;
      served.set(req.socket, before + 1);
      seen.push({ method: req.method ?? '', url: req.url ?? '', onReusedConnection: before > 0 });
      if (before > 0) {
        req.socket.destroy();
        return;
      }
      req.resume().on('end', () => {
        const body = req.method === 'GET' ? me : { id: 'rfr_1', name: 'Dra. Núñez' };
        res.writeHead(req.method === 'GET' ? 200 : 201, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('never sends a call that is not safe to repeat on a connection used before, so it is not lost', async () => {
    const client = createApiClient({ baseUrl: base, apiKey: 'k' });
    seen.length = 0;
    await client.account.me();
    await expect(client.referrers.create({ name: 'Dra. Núñez' })).resolves.toMatchObject({ id: 'rfr_1' });
    expect(seen).toEqual([
      { method: 'GET', url: '/api/v1/me', onReusedConnection: false },
      { method: 'POST', url: '/api/v1/referrers', onReusedConnection: false },
    ]);
  });

  it('repeats a read that died on a reused connection, on a new one', async () => {
    const client = createApiClient({ baseUrl: base, apiKey: 'k', retry: { maxAttempts: 2, baseMs: 1, capMs: 1 } });
    seen.length = 0;
    await client.account.me();
    await expect(client.account.me()).resolves.toMatchObject({ plan: 'pro' });
    expect(seen.map((s) => s.onReusedConnection)).toEqual([false, true, false]);
  });
});
