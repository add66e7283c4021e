import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: { id: string; type: string; created_at: string; data: Record<string, unknown> };
  /** Status this receiver answered. */
  answered: number;
  at: number;
};

/**
 * A webhook receiver like the reference one (API-v1.md §6.3): a real HTTP server on 127.0.0.1 that
 * checks `X-Service-Signature` in constant time against the secret registered for the request path
 * and answers 401 on a mismatch. Each path can be told to answer another status.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private readonly secrets = new Map<string, string>();
  private readonly statuses = new Map<string, number>();
  readonly delays = new Map<string, number>();
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const holder: { self?: WebhookReceiver } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const path = req.url ?? '/';
        const status = holder.self?.answer(path, req.headers, raw) ?? 500;
        const reply = (): void => {
          res.writeHead(status, { 'Content-Type': 'text/plain' });
          res.end(status === 401 ? 'bad signature' : `status ${status}`);
        };
        const delay = holder.self?.delays.get(path) ?? 0;
        if (delay > 0) setTimeout(reply, delay);
        else reply();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const port = (server.address() as AddressInfo).port;
    const self = new WebhookReceiver(server, `http://127.0.0.1:${port}`);
    holder.self = self;
    return self;
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  setSecret(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  /** Makes `path` answer `status` (after a valid signature); 204 by default. */
  setStatus(path: string, status: number): void {
    this.statuses.set(path, status);
  }

  /** Makes `path` hold its answers for `ms` milliseconds. */
  setDelay(path: string, ms: number): void {
    this.delays.set(path, ms);
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Resolves once `path` has received at least `count` requests (polls, real time). */
  async waitFor(path: string, count: number, timeoutMs = 5000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.on(path).length < count) {
      if (Date.now() > deadline) throw new Error(`receiver: ${path} got ${this.on(path).length} of ${count} requests`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.on(path);
  }

  private answer(path: string, headers: IncomingHttpHeaders, raw: Buffer): number {
    const secret = this.secrets.get(path);
    const given = Buffer.from(String(headers['x-service-signature'] ?? ''));
    const expected = Buffer.from(
      `sha256=${createHmac('sha256', secret ?? '')
        .update(raw)
        .digest('base64')}`,
    );
    const valid = secret !== undefined && given.length === expected.length && timingSafeEqual(given, expected);
    const status = valid ? (this.statuses.get(path) ?? 204) : 401;
    let body: Received['body'];
    try {
      body = JSON.parse(raw.toString('utf8')) as Received['body'];
    } catch {
      body = { id: '', type: '', created_at: '', data: {} };
    }
    this.received.push({ path, headers, raw, body, answered: status, at: Date.now() });
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
    return status;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
