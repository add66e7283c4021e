import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, Events } from '@preload/contract';
import type { ContractHost, EventListener } from '@main/core/agent/host/contract-host';
import { ContractFailure, parseArgs } from '@main/core/agent/host/contract-host';
import { RENDERER_CSP } from '@main/core/bridge/csp';
import type { Bridge } from '@main/core/bridge/server';
import { startBridge } from '@main/core/bridge/server';

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** A raw HTTP request, so tests can send any Host/Origin (fetch forbids setting Host). */
function raw(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, headers: { Host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** A host that runs the real argument parsing and echoes what it was given. */
function echoHost(): ContractHost & { emit<E extends EventName>(name: E, payload: Events[E]): void } {
  const listeners = new Set<EventListener>();
  return {
    async call(name, rawArgs) {
      const args = parseArgs(name, rawArgs);
      if (name === 'inbox:dismiss') throw new ContractFailure('not_found', 'No such study.');
      return { name, args };
    },
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    emit(name, payload) {
      for (const l of listeners) l(name, payload);
    },
  };
}

let dir: string;
let bridge: Bridge;
let host: ReturnType<typeof echoHost>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-bridge-'));
  const dist = join(dir, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>ScanBridge</title>');
  writeFileSync(join(dist, 'assets', 'app-1a2b.js'), 'console.log("ñ")');
  writeFileSync(join(dist, 'assets', 'style.css'), 'body{}');
  writeFileSync(join(dir, 'secret.txt'), 'outside the renderer');
  symlinkSync(join(dir, 'secret.txt'), join(dist, 'assets', 'link.txt'));
  host = echoHost();
  bridge = await startBridge({ host, staticDir: dist, pingMs: 200 });
});

afterAll(async () => {
  await bridge.close();
  rmSync(dir, { recursive: true, force: true });
});

const auth = (): Record<string, string> => ({
  Authorization: `Bearer ${bridge.token}`,
  'Content-Type': 'application/json',
});

describe('browser-mode server', () => {
  it('prints a loopback URL that carries the token', () => {
    expect(bridge.url).toBe(`http://127.0.0.1:${bridge.port}/?token=${bridge.token}`);
    expect(bridge.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('serves the renderer with content types and the strict CSP, without a token', async () => {
    const index = await raw(bridge.port, 'GET', '/');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['content-security-policy']).toBe(RENDERER_CSP);
    expect(index.body).toContain('<title>ScanBridge</title>');
    const js = await raw(bridge.port, 'GET', '/assets/app-1a2b.js');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect(js.body).toBe('console.log("ñ")');
    const css = await raw(bridge.port, 'GET', '/assets/style.css');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('falls back to index.html for app routes but not for missing assets', async () => {
    const route = await raw(bridge.port, 'GET', '/uploads/123?x=1');
    expect(route.status).toBe(200);
    expect(route.body).toContain('<title>ScanBridge</title>');
    expect((await raw(bridge.port, 'GET', '/assets/missing.js')).status).toBe(404);
  });

  it('refuses directory traversal, plain or encoded, and links leading out of the folder', async () => {
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
    ]) {
      const res = await raw(bridge.port, 'GET', path);
      expect(res.status, path).toBe(403);
      expect(res.body).not.toContain('outside the renderer');
    }
    const link = await raw(bridge.port, 'GET', '/assets/link.txt');
    expect(link.status).toBe(403);
    expect(link.body).not.toContain('outside the renderer');
    expect((await raw(bridge.port, 'GET', '/%E0%A4%A')).status).toBe(400);
  });

  it('refuses a foreign Host on every route, static files included (DNS rebinding)', async () => {
    for (const path of ['/', '/assets/app-1a2b.js', '/events?token=' + bridge.token]) {
      const res = await raw(bridge.port, 'GET', path, { Host: `evil.example:${bridge.port}` });
      expect(res.status, path).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'forbidden_host' } });
    }
    const wrongPort = await raw(
      bridge.port,
      'POST',
      '/rpc/app:info',
      { ...auth(), Host: `127.0.0.1:${bridge.port + 1}` },
      '{}',
    );
    expect(wrongPort.status).toBe(403);
    expect((await raw(bridge.port, 'GET', '/', { Host: `localhost:${bridge.port}` })).status).toBe(200);
  });

  it('refuses a foreign Origin even with the right token', async () => {
    for (const origin of [
      'http://evil.example',
      `http://127.0.0.1:${bridge.port + 1}`,
      'null',
      `https://127.0.0.1:${bridge.port}`,
    ]) {
      const res = await raw(bridge.port, 'POST', '/rpc/app:info', { ...auth(), Origin: origin }, '{}');
      expect(res.status, origin).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'forbidden_origin' } });
    }
    const own = await raw(
      bridge.port,
      'POST',
      '/rpc/app:info',
      { ...auth(), Origin: `http://localhost:${bridge.port}` },
      '{}',
    );
    expect(own.status).toBe(200);
  });

  it('refuses RPC without a token or with a wrong one', async () => {
    const none = await raw(bridge.port, 'POST', '/rpc/app:info', { 'Content-Type': 'application/json' }, '{}');
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toMatchObject({ error: { code: 'bad_token' } });
    const wrong = await raw(
      bridge.port,
      'POST',
      '/rpc/app:info',
      { Authorization: `Bearer ${bridge.token.slice(0, -1)}x` },
      '{}',
    );
    expect(wrong.status).toBe(401);
    const inQuery = await raw(bridge.port, 'POST', `/rpc/app:info?token=${bridge.token}`, {}, '{}');
    expect(inQuery.status).toBe(401);
  });

  it('runs a method with parsed arguments and answers {result}', async () => {
    const res = await raw(bridge.port, 'POST', '/rpc/folders:remove', auth(), JSON.stringify({ id: 'f1' }));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ result: { name: 'folders:remove', args: { id: 'f1' } } });
    const empty = await raw(bridge.port, 'POST', '/rpc/app:info', { Authorization: `Bearer ${bridge.token}` });
    expect(JSON.parse(empty.body)).toEqual({ result: { name: 'app:info', args: {} } });
  });

  it('answers 400 invalid_args with the fields at fault when arguments fail the schema', async () => {
    const res = await raw(
      bridge.port,
      'POST',
      '/rpc/folders:add',
      auth(),
      JSON.stringify({ path: '', exam_type: 'x', mode: 'auto', settle_seconds: 5, polling: false }),
    );
    expect(res.status).toBe(400);
    const body = JSON.parse(res.body) as { error: { code: string; details: { field: string }[] } };
    expect(body.error.code).toBe('invalid_args');
    expect(body.error.details.map((d) => d.field).sort()).toEqual(['exam_type', 'path']);
    const extra = await raw(bridge.port, 'POST', '/rpc/app:info', auth(), JSON.stringify({ evil: true }));
    expect(extra.status).toBe(400);
    const notJson = await raw(bridge.port, 'POST', '/rpc/app:info', auth(), '{nope');
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body)).toMatchObject({ error: { code: 'invalid_args' } });
  });

  it('answers 404 unknown_method for names outside the contract, prototype names included', async () => {
    for (const name of ['nope:nothing', '__proto__', 'toString', 'constructor']) {
      const res = await raw(bridge.port, 'POST', `/rpc/${name}`, auth(), '{}');
      expect(res.status, name).toBe(404);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'unknown_method' } });
    }
    expect((await raw(bridge.port, 'GET', '/rpc/app:info', auth())).status).toBe(405);
  });

  it('passes a handler failure through as its code', async () => {
    const res = await raw(bridge.port, 'POST', '/rpc/inbox:dismiss', auth(), JSON.stringify({ id: 'x' }));
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual({ error: { code: 'not_found', message: 'No such study.' } });
  });

  it('streams events over SSE to a client holding the token, with pings', async () => {
    const bad = await raw(bridge.port, 'GET', '/events?token=wrong');
    expect(bad.status).toBe(401);
    const noToken = await raw(bridge.port, 'GET', '/events');
    expect(noToken.status).toBe(401);

    const controller = new AbortController();
    const res = await fetch(`http://127.0.0.1:${bridge.port}/events?token=${bridge.token}`, {
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    if (!res.body) throw new Error('no event stream');
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const until = async (needle: string): Promise<void> => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        text += value;
      }
    };
    await until(': connected');
    host.emit('account:rate', { limit: 1000, remaining: 999, reset_at: null, updated_at: null });
    host.emit('settings:changed', {
      language: 'es',
      api_base_url: 'http://x',
      active_key: null,
      watch_folders: [],
      upload: { concurrency: 4, bandwidth_limit: 0, mode: 'auto', compress: 'auto' },
      exam_name_template: '{patient} · MUÑOZ',
      default_expiration_days: null,
      consent: { country_code: 'CL', copies_folder: null, display_id: null },
      handout_paper: 'A4',
    });
    await until('MUÑOZ');
    expect(text).toContain(
      'event: account:rate\ndata: {"limit":1000,"remaining":999,"reset_at":null,"updated_at":null}\n\n',
    );
    expect(text).toContain('event: settings:changed\ndata: {"language":"es"');
    await until(': ping');
    controller.abort();
  });
});
