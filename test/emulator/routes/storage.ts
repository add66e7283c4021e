import { createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { App, RawCtx } from '../core/app';
import { ApiError, conflict, notFound } from '../core/http';
import { randomToken } from '../core/ids';
import type { Exam } from '../core/state';
import { Md5Meter } from '../exams/md5-worker';
import { isSafeObjectName, objectKey, ZIP_OBJECT } from '../exams/exam-objects';

/**
 * Presigned object storage (CHOICES.md, "Presigned storage"): `{origin}/storage/{exam_id}/{object}?expires=&sig=`.
 * PUT takes an upload's bytes, GET serves a stored object. Outside /api/v1: no API key, never rate
 * limited. Objects live at `Store.objectPath(`${exam_id}/${object}`)`.
 */

const INCOMING = '.incoming';

function signature(app: App, examId: string, object: string, expires: number): string {
  return createHmac('sha256', app.store.state.signing_secret).update(`${examId}/${object}:${expires}`).digest('hex');
}

/**
 * A presigned URL for one object of an exam, valid for `ttlSeconds` (default `--url-ttl`) of service
 * time and for both PUT and GET. Other modules (reports) use it for download links.
 */
export function presign(
  app: App,
  examId: string,
  object: string,
  ttlSeconds?: number,
): { url: string; expires_at: string } {
  const ttl = ttlSeconds ?? app.config.urlTtlSeconds;
  const expires = Math.ceil((app.clock.now() + ttl * 1000) / 1000);
  const sig = signature(app, examId, object, expires);
  return {
    url: `${app.origin()}/storage/${encodeURIComponent(examId)}/${encodeURIComponent(object)}?expires=${expires}&sig=${sig}`,
    expires_at: new Date(expires * 1000).toISOString(),
  };
}

/** Checks signature then expiry; answers the object's exam (404 once deleted). */
function authorize(app: App, ctx: RawCtx): { exam: Exam; object: string } {
  const examId = ctx.params['exam'] ?? '';
  const object = ctx.params['object'] ?? '';
  const expiresRaw = ctx.query.get('expires') ?? '';
  const sig = ctx.query.get('sig') ?? '';
  const expires = /^\d{1,12}$/.test(expiresRaw) ? Number(expiresRaw) : NaN;
  const expected = Buffer.from(Number.isFinite(expires) ? signature(app, examId, object, expires) : '', 'utf8');
  const given = Buffer.from(sig, 'utf8');
  if (
    !Number.isFinite(expires) ||
    !isSafeObjectName(object) ||
    given.length !== expected.length ||
    !timingSafeEqual(given, expected)
  ) {
    throw new ApiError(403, 'signature_invalid', 'The URL signature is not valid');
  }
  if (app.clock.now() > expires * 1000) throw new ApiError(403, 'url_expired', 'The presigned URL has expired');
  const exam = app.store.state.exams.find((e) => e.id === examId);
  if (!exam) throw notFound('Exam');
  return { exam, object };
}

type Slot = { size: number; open: boolean };

/** The upload slot an object name stands for: a main file, the staged ZIP, or a file of an extra take. */
function slotOf(exam: Exam, object: string): Slot | undefined {
  const key = objectKey(exam.id, object);
  if (object === ZIP_OBJECT && exam.zip) return { size: exam.zip.size, open: exam.status === 'uploading' };
  const file = exam.files.find((f) => f.object === key);
  if (file) return { size: file.size, open: exam.status === 'uploading' };
  for (const x of exam.extra_series) {
    const xf = x.files.find((f) => f.object === key);
    if (xf) return { size: xf.size, open: x.status === 'uploading' };
  }
  return undefined;
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  zip: 'application/zip',
  dcm: 'application/dicom',
};

function contentTypeOf(object: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(object)?.[1]?.toLowerCase() ?? '';
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

async function put(app: App, ctx: RawCtx): Promise<null> {
  const { req, res } = ctx;
  const { exam, object } = authorize(app, ctx);
  const slot = slotOf(exam, object);
  if (!slot) throw notFound('Upload slot');
  if (!slot.open) throw conflict('The upload for this object is already confirmed');
  const declared = req.headers['content-length'];
  if (declared === undefined || !/^\d+$/.test(declared) || Number(declared) !== slot.size) {
    throw new ApiError(400, 'size_mismatch', `Content-Length must equal the declared size of ${slot.size} bytes`, {
      expected_size: slot.size,
    });
  }
  const tmpDir = app.store.objectPath(INCOMING);
  await mkdir(tmpDir, { recursive: true });
  const tmp = join(tmpDir, `${exam.id}.${randomToken(9)}.part`);
  const meter = new Md5Meter();
  try {
    await pipeline(req, meter, createWriteStream(tmp, { highWaterMark: 1 << 20 }));
  } catch {
    // The client went away mid-body: keep nothing of it.
    meter.discard();
    await rm(tmp, { force: true });
    res.destroy();
    return null;
  }
  const etag = await meter.digest();
  const alive = app.store.state.exams.includes(exam) && slotOf(exam, object)?.open === true;
  if (meter.bytes !== slot.size || !alive) {
    await rm(tmp, { force: true });
    if (!alive)
      throw app.store.state.exams.includes(exam)
        ? conflict('The upload for this object is already confirmed')
        : notFound('Exam');
    throw new ApiError(400, 'size_mismatch', `Received ${meter.bytes} bytes, declared ${slot.size}`, {
      expected_size: slot.size,
    });
  }
  const dest = app.store.objectPath(objectKey(exam.id, object));
  await mkdir(app.store.objectPath(exam.id), { recursive: true });
  await rename(tmp, dest);
  // Deleted while the file was moved into place: its objects are being cleaned, so is this one.
  if (!app.store.state.exams.includes(exam)) {
    await rm(dest, { force: true });
    throw notFound('Exam');
  }
  const body = Buffer.from(JSON.stringify({ object, size: meter.bytes, etag }));
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(body.length),
    ETag: `"${etag}"`,
  });
  res.end(body);
  return null;
}

async function get(app: App, ctx: RawCtx, headOnly: boolean): Promise<null> {
  const { exam, object } = authorize(app, ctx);
  const path = app.store.objectPath(objectKey(exam.id, object));
  const st = await stat(path).catch(() => undefined);
  if (!st?.isFile()) throw notFound('Object');
  ctx.res.writeHead(200, {
    'Content-Type': contentTypeOf(object),
    'Content-Length': String(st.size),
    'Cache-Control': 'private, no-store',
  });
  if (headOnly) {
    ctx.res.end();
    return null;
  }
  await pipeline(createReadStream(path, { highWaterMark: 1 << 20 }), ctx.res).catch(() => ctx.res.destroy());
  return null;
}

/** Registers presigned PUT/GET/HEAD and clears uploads a previous run left half-written. */
export function register(app: App): void {
  app.public.add('PUT', '/storage/:exam/:object', { scope: null }, (ctx) => put(app, ctx));
  app.public.add('GET', '/storage/:exam/:object', { scope: null }, (ctx) => get(app, ctx, false));
  app.public.add('HEAD', '/storage/:exam/:object', { scope: null }, (ctx) => get(app, ctx, true));
  rmSync(app.store.objectPath(INCOMING), { recursive: true, force: true });
}
