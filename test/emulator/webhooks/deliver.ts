import { createHmac } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** §6.4.1 / §8.2: a delivery must be answered within 10 s of real time (never time-scaled). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Bytes of the receiver's answer kept in the delivery log. */
const KEPT_RESPONSE_BYTES = 1024;

export type AttemptResult = {
  ok: boolean;
  status: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
};

/** `sha256=` + base64 HMAC-SHA-256 of the raw body bytes keyed with the secret (§6.3). */
export function signBody(secret: string, body: Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('base64')}`;
}

/**
 * POSTs one delivery with exactly the §6.3 headers (node:http rather than fetch, which would add
 * headers of its own). Never throws: every failure comes back as a result.
 */
export async function postDelivery(url: string, headers: Record<string, string>, body: Buffer): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), DELIVERY_TIMEOUT_MS);
  try {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = send(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Length': String(body.length) },
          signal: controller.signal,
          agent: false,
        },
        resolve,
      );
      req.on('error', reject);
      req.end(body);
    });
    const kept = await readPrefix(res);
    const status = res.statusCode ?? 0;
    const ok = status >= 200 && status < 300;
    return { ok, status, body: kept, error: ok ? null : `HTTP ${status}`, durationMs: elapsed() };
  } catch (err) {
    const error = controller.signal.aborted ? `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s` : describe(err);
    return { ok: false, status: null, body: null, error, durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
  }
}

async function readPrefix(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    const buf = chunk as Buffer;
    if (size < KEPT_RESPONSE_BYTES) chunks.push(buf);
    size += buf.length;
    // A receiver streaming a huge answer should not hold the delivery; the prefix is all we keep.
    if (size > 64 * 1024) {
      res.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, KEPT_RESPONSE_BYTES).toString('utf8');
}

function describe(err: unknown): string {
  if (err && typeof err === 'object') {
    const code = (err as { code?: unknown }).code;
    const message = err instanceof Error ? err.message : '';
    if (typeof code === 'string') return `${code}${message ? `: ${message}` : ''}`.slice(0, 500);
    if (message) return message.slice(0, 500);
  }
  return 'delivery failed';
}
