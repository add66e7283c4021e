// Server-Sent Events for the browser-mode transport: one stream per window, every contract event
// written as `event: <name>` + `data: <json>`, and a comment ping so idle proxies and the browser
// keep the connection open.
import type { ServerResponse } from 'node:http';
import type { EventName } from '../../../preload/contract';

const PING_MS = 15_000;

/** One event in the SSE wire format. */
export function formatEvent(name: EventName, payload: unknown): string {
  // JSON never contains a raw newline, so one `data:` line holds the whole payload.
  return `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
}

/** The open event streams; `broadcast` writes to all of them. */
export class EventStreams {
  private readonly clients = new Set<ServerResponse>();
  private readonly pinger: NodeJS.Timeout;

  constructor(pingMs = PING_MS) {
    this.pinger = setInterval(() => this.write(': ping\n\n'), pingMs);
    this.pinger.unref();
  }

  /** Turns a response into an event stream and keeps it until the client goes away. */
  open(res: ServerResponse, extraHeaders: Record<string, string>): void {
    res.writeHead(200, {
      ...extraHeaders,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.socket?.setNoDelay(true);
    // Tells the browser how long to wait before reconnecting, and flushes the headers at once.
    res.write('retry: 2000\n: connected\n\n');
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
  }

  broadcast(name: EventName, payload: unknown): void {
    this.write(formatEvent(name, payload));
  }

  get size(): number {
    return this.clients.size;
  }

  /** Ends every stream (server shutdown). */
  close(): void {
    clearInterval(this.pinger);
    for (const res of this.clients) res.end();
    this.clients.clear();
  }

  private write(chunk: string): void {
    for (const res of this.clients) {
      if (!res.writableEnded) res.write(chunk);
    }
  }
}
