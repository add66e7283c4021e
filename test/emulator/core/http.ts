import type { IncomingMessage, ServerResponse } from 'node:http';

/** One field-level problem of a rejected request body or query. */
export type FieldIssue = { field: string; message: string };

/** An error answered as `{error:{code,message,...extra}}` with its HTTP status (CONTRACTS.md "Errors"). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details: FieldIssue[] = []): ApiError =>
  new ApiError(400, 'validation_error', message, { details });
export const notFound = (what = 'Resource'): ApiError => new ApiError(404, 'not_found', `${what} not found`);
export const conflict = (message: string, extra: Record<string, unknown> = {}): ApiError =>
  new ApiError(409, 'conflict', message, extra);
export const limitExceeded = (status: 400 | 409, message: string, extra: Record<string, unknown> = {}): ApiError =>
  new ApiError(status, 'limit_exceeded', message, extra);

/** Largest request body accepted by the API (a base64 report PDF fits comfortably). */
export const MAX_JSON_BODY = 64 * 1024 * 1024;

const tooLarge = (limit: number): ApiError =>
  new ApiError(413, 'payload_too_large', `Request body exceeds ${limit} bytes`);

/**
 * Reads a whole request body, refusing more than `limit` bytes with 413: at once when Content-Length
 * says so, else as soon as the running count passes the limit (the rest is never buffered).
 */
export function readBody(req: IncomingMessage, limit = MAX_JSON_BODY): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (err: Error | null): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (err) reject(err);
      else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish(tooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish(null);
    const onError = (): void =>
      finish(
        new ApiError(400, 'validation_error', 'The request body could not be read', {
          details: [{ field: 'body', message: 'connection failed while sending' }],
        }),
      );
    const onClose = (): void => {
      if (!req.complete) onError();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * After an early answer to a request whose body is still arriving: discards the rest so that the
 * client reads the answer (closing at once would reset the connection under its pending upload),
 * but cuts off a sender that goes on for more than `maxBytes` or `maxMs`.
 */
export function discardRest(req: IncomingMessage, maxBytes = 16 * 1024 * 1024, maxMs = 2000): void {
  if (req.complete || req.destroyed) return;
  let seen = 0;
  const cut = (): void => {
    clearTimeout(timer);
    req.socket.destroy();
  };
  const timer = setTimeout(cut, maxMs);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > maxBytes) cut();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.resume();
}

/** Parses a JSON body: empty → undefined; malformed → 400 validation_error. */
export function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw badRequest('Request body is not valid JSON', [{ field: 'body', message: 'malformed JSON' }]);
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const data = Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(data.length),
    ...headers,
  });
  res.end(data);
}

export function sendBytes(
  res: ServerResponse,
  status: number,
  contentType: string,
  data: Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': String(data.length), ...headers });
  res.end(data);
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  sendBytes(res, status, 'text/html; charset=utf-8', Buffer.from(html), {
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:",
  });
}

export function sendError(res: ServerResponse, err: ApiError): void {
  sendJson(res, err.status, { error: { code: err.code, message: err.message, ...err.extra } }, err.headers);
}

/** Escapes text for safe inclusion in the emulator's small HTML pages. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
