import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '../../support/emulator/emulator';

type Detail = { field: string; message: string };
type Streamed = { status: number; body: string; sentAtResponse: number; ms: number };

const MiB = 1024 * 1024;

describe('emulator: robustness of the request pipeline', () => {
  let emu: EmulatorProcess;
  let key: string;

  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    key = emu.info.keys.ultra;
  });
  afterAll(async () => {
    await emu.dispose();
  });

  /**
   * Streams `total` bytes of filler to POST /referrers, lazily, and reports when the answer came.
   * With `keepSending`, goes on writing after the answer until the server closes the connection.
   */
  function streamBody(
    total: number,
    declareLength: boolean,
    keepSending = false,
  ): Promise<Streamed & { sentAtClose: number; closedAfterMs: number }> {
    const url = new URL(`${emu.info.base_url}/referrers`);
    const chunk = Buffer.alloc(MiB, 0x20);
    const start = Date.now();
    return new Promise((resolve, reject) => {
      let sent = 0;
      let answer: Streamed | undefined;
      let settled = false;
      const headers: Record<string, string> = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
      if (declareLength) headers['Content-Length'] = String(total);
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers });
      const settle = (): void => {
        if (settled || !answer) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        resolve({ ...answer, sentAtClose: sent, closedAfterMs: Date.now() - start - answer.ms });
      };
      const timer = setTimeout(() => {
        req.destroy();
        reject(
          new Error(
            answer
              ? `connection still open after the answer, ${sent / MiB} MiB sent`
              : `no answer after ${sent / MiB} MiB in 20 s`,
          ),
        );
      }, 20_000);
      req.on('response', (res) => {
        const sentAtResponse = sent;
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => {
          answer = { status: res.statusCode ?? 0, body, sentAtResponse, ms: Date.now() - start };
          if (!keepSending) settle();
        });
      });
      req.on('error', (err) => {
        if (answer) settle();
        else {
          clearTimeout(timer);
          reject(new Error(`connection failed before the answer (${err.message}) after ${sent / MiB} MiB`));
        }
      });
      req.on('close', () => settle());
      const pump = (): void => {
        while (!settled && !req.destroyed && (sent < total || keepSending)) {
          sent += chunk.length;
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
        if (!settled && !req.destroyed) req.end();
      };
      pump();
    });
  }

  it('malformed JSON answers 400 validation_error with details on field body', async () => {
    for (const text of ['{', '{"name": "x",}', 'nul', "{'name': 'x'}", '\u0000\u0001']) {
      const r = await api(emu.info, key, 'POST', '/referrers', text);
      expect(r.status, JSON.stringify(text)).toBe(400);
      expect(r.json.error?.code).toBe('validation_error');
      expect((r.json.error?.['details'] as Detail[])[0]?.field).toBe('body');
    }
  });

  it('a body that is JSON but not an object, or has wrong types, answers 400 naming the fields', async () => {
    for (const body of ['[]', '"text"', '42', 'null']) {
      const r = await api(emu.info, key, 'POST', '/templates', body);
      expect(r.status, body).toBe(400);
      expect((r.json.error?.['details'] as Detail[]).length).toBeGreaterThan(0);
    }
    const r = await api(emu.info, key, 'POST', '/support/tickets', {
      subject: ['a'],
      message: { text: 'b' },
      category: 3,
    });
    expect(r.status).toBe(400);
    expect((r.json.error?.['details'] as Detail[]).map((d) => d.field).sort()).toEqual([
      'category',
      'message',
      'subject',
    ]);
  });

  it('a body over 64 MiB with Content-Length is refused with 413 before it is sent', async () => {
    const r = await streamBody(200 * MiB, true);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'payload_too_large' } });
    // Refused on the header: the answer arrives after the first few MiB of 200 at most.
    expect(r.sentAtResponse).toBeLessThan(32 * MiB);
    expect(r.ms).toBeLessThan(5000);
    expect((await api(emu.info, key, 'GET', '/me')).status).toBe(200);
  });

  it('a chunked body with no length is cut off with 413 once it passes 64 MiB, not read to the end', async () => {
    const r = await streamBody(400 * MiB, false);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'payload_too_large' } });
    expect(r.sentAtResponse).toBeGreaterThan(64 * MiB);
    expect(r.sentAtResponse).toBeLessThan(128 * MiB);
    expect((await api(emu.info, key, 'GET', '/me')).status).toBe(200);
  });

  it('after refusing, the server discards a little more of the body and then cuts off a sender that goes on', async () => {
    const r = await streamBody(200 * MiB, true, true);
    expect(r.status).toBe(413);
    // At most ~16 MiB more are read (plus what the socket buffers hold), within a couple of seconds.
    expect(r.sentAtClose - r.sentAtResponse).toBeLessThan(64 * MiB);
    expect(r.closedAfterMs).toBeLessThan(10_000);
    expect((await api(emu.info, key, 'GET', '/me')).status).toBe(200);
  });

  it('a body of exactly 64 MiB is accepted as far as size goes (then judged as JSON)', async () => {
    const r = await streamBody(64 * MiB, true);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'validation_error' } });
  });

  it('unknown routes answer 404 not_found; a known path with another method 405 method_not_allowed', async () => {
    const unknown = await api(emu.info, key, 'GET', '/no/such/thing');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error?.code).toBe('not_found');
    const wrong = await api(emu.info, key, 'PUT', '/referrers');
    expect(wrong.status).toBe(405);
    expect(wrong.json.error?.code).toBe('method_not_allowed');
    const ctl = await fetch(`${emu.info.control_url}/no-such-control`);
    expect(ctl.status).toBe(404);
    const pub = await fetch(new URL('/nothing/here', emu.info.base_url));
    expect(pub.status).toBe(404);
  });

  it('an unexpected exception (POST /__emulator/crash-test) answers 500 internal_error and the server keeps serving', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${emu.info.control_url}/crash-test`, { method: 'POST' });
      expect(r.status).toBe(500);
      expect(await r.json()).toMatchObject({ error: { code: 'internal_error' } });
    }
    expect(emu.stderr()).toContain('crash-test');
    const me = await api(emu.info, key, 'GET', '/me');
    expect(me.status).toBe(200);
    expect((await api(emu.info, key, 'POST', '/referrers', { name: 'Dr. Sigue Vivo' })).status).toBe(201);
  });

  it('a request target that is not a URL path (GET //) answers 400 over a raw socket, not 500', async () => {
    const port = Number(new URL(emu.info.base_url).port);
    const answer = await new Promise<string>((resolve, reject) => {
      const sock = connect(port, '127.0.0.1', () =>
        sock.end('GET // HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      );
      let data = '';
      sock.setEncoding('utf8').on('data', (d: string) => (data += d));
      sock.on('end', () => resolve(data));
      sock.on('error', reject);
    });
    expect(answer.split('\r\n')[0]).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect((await api(emu.info, key, 'GET', '/me')).status).toBe(200);
  });
});
