// Presigned PUTs to object storage over plain node:http(s): streaming from disk with an exact
// Content-Length, stall detection, a shared bandwidth limit, and retries with fresh streams.
// (got's stream path measured several times slower than node:http on loopback; see TOOLCHAIN.md.)
import { type Agent as HttpAgent, type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { type Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import { z } from 'zod';
import { abortReason, backoffDelayMs, type BackoffPolicy, sleep, whenAborted } from '../../api/http';
import { statusFailure } from '../../net/failure-class';
import { transferRouter, type TransferRouter } from '../../net/transfer-agents';

const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, capMs: 20_000 };
import type { TokenBucket } from './token-bucket';

/**
 * - `retryable`: 5xx, 408, 429, connection reset or refused, stall: try again with a fresh stream;
 * - `expired`: the presigned URL has expired (403 url_expired);
 * - `size_mismatch`: storage saw a different length than declared (the file changed?);
 * - `gone`: the exam's storage is gone (404: the exam was deleted);
 * - `conflict`: storage refuses more objects (409: the exam is already complete);
 * - `rejected`: any other refusal (e.g. a bad signature): retrying will not help;
 * - `source`: the file could not be read.
 */
export type TransferFailure = 'retryable' | 'expired' | 'size_mismatch' | 'gone' | 'conflict' | 'rejected' | 'source';

export class TransferError extends Error {
  override name = 'TransferError';
  constructor(
    readonly kind: TransferFailure,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Keep-alive connection pools for the presigned PUTs of one job. `route`, when present, gives the
 * pools for a URL through the network's proxy and trust (net/transfer-agents.ts).
 */
export type TransferAgents = { http: HttpAgent; https: HttpsAgent; destroy: () => void; route?: TransferRouter };

/** Connection pools sized to the job's concurrency, on the process's network (proxy, trusted CAs). */
export function createAgents(maxSockets: number): TransferAgents {
  return transferRouter(maxSockets);
}

/** What to send: its exact length and a way to open it afresh for each attempt. */
export type PutBody = {
  size: number;
  open: () => Readable;
  /** True while the source waits for its own writer (an archive sent as it is written): not a stall. */
  held?: () => boolean;
};

export type PutOptions = {
  agents: TransferAgents;
  signal?: AbortSignal;
  /** No byte moving for this long (while not held back by the bandwidth limit) counts as a stall. */
  stallTimeoutMs: number;
  bucket?: TokenBucket;
  /** Bytes handed to the connection; negative when an attempt failed and its bytes no longer count. */
  onProgress?: (delta: number) => void;
};

export type RetryOptions = PutOptions & {
  maxAttempts: number;
  backoff?: BackoffPolicy;
  onRetry?: (info: { attempt: number; delayMs: number; error: TransferError }) => void;
};

const errorBody = z.object({ error: z.object({ code: z.string(), message: z.string().optional() }) });

/** PUTs `body` to `url`, retrying transient failures with full-jitter backoff and a fresh stream each time. */
export async function putWithRetry(url: string, body: PutBody, opts: RetryOptions): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    let sent = 0;
    try {
      const agents = opts.agents.route ? { ...opts.agents, ...(await opts.agents.route(url)) } : opts.agents;
      await putOnce(url, body, {
        ...opts,
        agents,
        onProgress: (d) => {
          sent += d;
          opts.onProgress?.(d);
        },
      });
      return;
    } catch (err) {
      if (sent !== 0) opts.onProgress?.(-sent);
      if (!(err instanceof TransferError) || err.kind !== 'retryable' || attempt + 1 >= opts.maxAttempts) throw err;
      const delayMs = backoffDelayMs(attempt, opts.backoff ?? DEFAULT_BACKOFF);
      opts.onRetry?.({ attempt: attempt + 1, delayMs, error: err });
      await sleep(delayMs, opts.signal);
    }
  }
}

/** One PUT attempt. Resolves once storage answered 2xx; rejects with a TransferError or the abort reason. */
export function putOnce(url: string, body: PutBody, opts: PutOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const { signal } = opts;
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const target = new URL(url);
    const isHttps = target.protocol === 'https:';
    const req = (isHttps ? httpsRequest : httpRequest)(target, {
      method: 'PUT',
      agent: isHttps ? opts.agents.https : opts.agents.http,
      headers: { 'Content-Length': String(body.size), 'Content-Type': 'application/octet-stream' },
    });
    const source = body.open();
    let settled = false;
    let lastActivity = Date.now();
    let throttled = false;
    const touch = (): void => {
      lastActivity = Date.now();
    };

    const finish = (err?: Error): void => {
      if (settled) return;
      settled = true;
      clearInterval(stallTimer);
      stopListening();
      if (err) {
        source.destroy();
        req.destroy();
        reject(err);
      } else resolve();
    };
    // One listener on the job's signal for all its transfers and waits (api/retry.ts whenAborted).
    const stopListening = signal ? whenAborted(signal, () => finish(abortReason(signal))) : () => undefined;

    const stallTimer = setInterval(
      () => {
        if (body.held?.()) touch();
        else if (!throttled && Date.now() - lastActivity > opts.stallTimeoutMs) {
          finish(
            new TransferError('retryable', `no progress for ${Math.round(opts.stallTimeoutMs / 1000)} s (stalled)`),
          );
        }
      },
      Math.max(50, Math.min(1000, opts.stallTimeoutMs / 4)),
    );

    req.on('response', (res: IncomingMessage) => readAnswer(res, touch, finish));
    req.on('error', (e: NodeJS.ErrnoException) => {
      finish(new TransferError('retryable', `connection failed: ${e.code ?? e.message}`, undefined, { cause: e }));
    });
    sendBody({
      source,
      req,
      body,
      opts,
      touch,
      isSettled: () => settled,
      setThrottled: (t) => void (throttled = t),
      finish,
    });
  });
}

/** Reads storage's answer to a PUT (the first 16 KB of a refusal are enough to classify it). */
function readAnswer(res: IncomingMessage, touch: () => void, finish: (err?: Error) => void): void {
  touch();
  const status = res.statusCode ?? 0;
  const chunks: Buffer[] = [];
  let kept = 0;
  res.on('data', (c: Buffer) => {
    touch();
    if (kept < 16_384) {
      chunks.push(c);
      kept += c.length;
    }
  });
  res.on('error', (e) =>
    finish(new TransferError('retryable', `response interrupted: ${e.message}`, status, { cause: e })),
  );
  res.on('end', () => {
    if (status >= 200 && status < 300) finish();
    else finish(classifyStatus(status, Buffer.concat(chunks).toString('utf8')));
  });
}

type Sending = {
  source: Readable;
  req: ClientRequest;
  body: PutBody;
  opts: PutOptions;
  /** Marks bytes moving (the stall timer reads it). */
  touch: () => void;
  isSettled: () => boolean;
  /** While a chunk waits for its share of the bandwidth, the stall timer does not count. */
  setThrottled: (throttled: boolean) => void;
  finish: (err?: Error) => void;
};

/** Streams the file into the request, counting its bytes against the declared length and, when limited, the bandwidth. */
function sendBody({ source, req, body, opts, touch, isSettled, setThrottled, finish }: Sending): void {
  let sourceFailed = false;
  source.once('error', () => {
    sourceFailed = true;
  });
  // A body shorter than its Content-Length would leave storage waiting (a stall, retried in
  // vain); a longer one would be cut. Either means the source is not what was planned.
  let counted = 0;
  let lengthWrong = false;
  const wrongLength = (n: number): Error => {
    lengthWrong = true;
    return new Error(`the data is ${n > body.size ? 'longer' : 'shorter'} than the ${body.size} bytes declared`);
  };
  const bucket = opts.bucket?.bytesPerSecond != null ? opts.bucket : null;
  const done = (err: Error | null): void => {
    if (!err || isSettled()) return;
    if (sourceFailed || lengthWrong) {
      finish(
        new TransferError(
          'source',
          `cannot read the file: ${(err as NodeJS.ErrnoException).code ?? err.message}`,
          undefined,
          { cause: err },
        ),
      );
    } else
      finish(
        new TransferError(
          'retryable',
          `upload interrupted: ${(err as NodeJS.ErrnoException).code ?? err.message}`,
          undefined,
          { cause: err },
        ),
      );
  };

  if (!bucket) {
    // No limit: the file goes straight into the socket; a listener counts (no extra stream stage).
    source.on('data', (chunk: Buffer) => {
      counted += chunk.length;
      touch();
      opts.onProgress?.(chunk.length);
      if (counted > body.size) source.destroy(wrongLength(counted));
    });
    source.once('end', () => {
      if (counted !== body.size) done(wrongLength(counted));
    });
    // pipe() rather than pipeline(): pipeline builds and aborts an AbortController (and a
    // DOMException) per stream, a measurable cost over thousands of files. Errors of `req`
    // are handled by putOnce; a failed source is handled here.
    source.once('error', done);
    source.pipe(req);
    return;
  }

  // Limited: each chunk waits for its share of the bandwidth first.
  const meter = new Transform({
    flush(cb: TransformCallback): void {
      cb(counted === body.size ? null : wrongLength(counted));
    },
    transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
      counted += chunk.length;
      if (counted > body.size) {
        cb(wrongLength(counted));
        return;
      }
      setThrottled(true);
      bucket.take(chunk.length, opts.signal).then(
        () => {
          setThrottled(false);
          touch();
          opts.onProgress?.(chunk.length);
          cb(null, chunk);
        },
        (e: unknown) => cb(e instanceof Error ? e : new Error(String(e))),
      );
    },
  });
  pipeline(source, meter, req, done);
}

function classifyStatus(status: number, text: string): TransferError {
  let code = '';
  try {
    const parsed = errorBody.safeParse(JSON.parse(text));
    if (parsed.success) code = parsed.data.error.code;
  } catch {
    // Not JSON (a proxy's HTML page, S3's XML): the status decides.
  }
  const what = `storage answered ${status}${code ? ` ${code}` : ''}`;
  // Time-outs (408, 504), rate limits and the service's own faults: the same classes as the API's.
  if (statusFailure(status).class === 'transient') return new TransferError('retryable', what, status);
  if (status === 403 && (code === 'url_expired' || /expired/i.test(text)))
    return new TransferError('expired', what, status);
  if (status === 400 && code === 'size_mismatch') return new TransferError('size_mismatch', what, status);
  if (status === 404) return new TransferError('gone', what, status);
  if (status === 409) return new TransferError('conflict', what, status);
  return new TransferError('rejected', what, status);
}
