// A lost answer, for real: a small HTTP proxy in front of the emulator that lets a chosen request
// reach the service whole, waits until the service has answered (so its effect has happened), and
// then cuts the client's connection without passing the answer on. This is what a clinic sees when
// a Wi-Fi link or a proxy drops between "the service did it" and "we heard it did".
//
//   const proxy = await LostAnswerProxy.start(emulator.info.base_url);
//   proxy.loseNext({ method: 'POST', path: /\/share$/ });   // the next matching answer is lost
//   … point the client at proxy.baseUrl …
//   expect(proxy.lost).toHaveLength(1);
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type LoseRule = {
  /** HTTP method to match (any when absent). */
  method?: string;
  /** Matched against the path with its query, e.g. `/api/v1/exams/ex_1/share`. */
  path: RegExp;
  /** How many matching answers to lose (default 1). */
  count?: number;
};

export type LostAnswer = { method: string; path: string; status: number };

/** A request the proxy answered itself, as a slow gateway or a server that gave up waiting does. */
export type OwnAnswer = { method: string; path: string; status: number };

export class LostAnswerProxy {
  /** Answers the proxy received from the service and did not pass on. */
  readonly lost: LostAnswer[] = [];
  /** Every request that went through, in order (method and path). */
  readonly seen: { method: string; path: string }[] = [];
  /** Requests the proxy answered itself (answerNext), without passing them on. */
  readonly answered: OwnAnswer[] = [];
  private rules: (LoseRule & { left: number })[] = [];
  private answers: (LoseRule & { left: number; status: number })[] = [];
  private readonly sockets = new Set<Socket>();

  private readonly server: Server;

  private constructor(private readonly target: URL) {
    this.server = createServer((req, res) => this.forward(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /** Starts a proxy on a free loopback port in front of `targetBaseUrl` (an emulator's `base_url`). */
  static async start(targetBaseUrl: string): Promise<LostAnswerProxy> {
    const proxy = new LostAnswerProxy(new URL(targetBaseUrl));
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The proxy's base URL, with the same path as the target's (e.g. `http://127.0.0.1:PORT/api/v1`). */
  get baseUrl(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}${this.target.pathname.replace(/\/$/, '')}`;
  }

  /** The next `count` requests matching the rule reach the service, and their answers are lost. */
  loseNext(rule: LoseRule): void {
    this.rules.push({ ...rule, left: rule.count ?? 1 });
  }

  /**
   * The next `count` requests matching the rule never reach the service: the proxy reads each
   * whole and answers `status` itself with a JSON error body (a 408 as a server that gave up
   * waiting for the request answers, a 504 as a gateway does).
   */
  answerNext(rule: LoseRule & { status: number }): void {
    this.answers.push({ ...rule, left: rule.count ?? 1 });
  }

  /** Forgets the rules not yet used up. */
  clearRules(): void {
    this.rules = [];
    this.answers = [];
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private takeRule(method: string, path: string): boolean {
    const rule = this.rules.find(
      (r) => r.left > 0 && (r.method === undefined || r.method === method) && r.path.test(path),
    );
    if (!rule) return false;
    rule.left -= 1;
    return true;
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    this.seen.push({ method, path });
    const own = this.answers.find(
      (r) => r.left > 0 && (r.method === undefined || r.method === method) && r.path.test(path),
    );
    if (own) {
      own.left -= 1;
      req.resume();
      req.once('end', () => {
        this.answered.push({ method, path, status: own.status });
        const body = JSON.stringify({ error: { code: 'request_timeout', message: 'The request took too long.' } });
        res.writeHead(own.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
      return;
    }
    const lose = this.takeRule(method, path);
    const headers = { ...req.headers, host: this.target.host };
    const upstream = request(
      { protocol: this.target.protocol, hostname: this.target.hostname, port: this.target.port, method, path, headers },
      (answer) => {
        if (!lose) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        // Read the whole answer (the service has acted and replied), then drop the client's connection.
        answer.resume();
        answer.once('end', () => {
          this.lost.push({ method, path, status: answer.statusCode ?? 0 });
          req.socket.destroy();
        });
      },
    );
    upstream.on('error', () => req.socket.destroy());
    req.pipe(upstream);
  }
}
