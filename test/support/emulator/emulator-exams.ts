import { request } from 'node:http';
import { expect } from 'vitest';
import { api, type EmulatorInfo } from './emulator';

/**
 * Shared helpers of the exams, storage, zip, extras and sharing suites: exams created and uploaded the
 * way a client does it, over real HTTP.
 */

export type Json = Record<string, unknown>;
export type UploadUrl = { name: string; url: string; expires_at: string };
export type CreatedExam = Json & {
  id: string;
  upload_urls?: UploadUrl[];
  upload_url?: { url: string; expires_at: string };
};

/** Deterministic content of a declared file. */
export function bytesFor(name: string, size: number): Buffer {
  const seed = Buffer.from(`${name}|`);
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i++) out[i] = (seed[i % seed.length] ?? 0) ^ (i & 0xff);
  return out;
}

/** POST /exams expecting 201. */
export async function createExam(info: EmulatorInfo, key: string, body: Json): Promise<CreatedExam> {
  const r = await api(info, key, 'POST', '/exams', body);
  if (r.status !== 201) throw new Error(`POST /exams → ${r.status} ${JSON.stringify(r.json)}`);
  return r.json as CreatedExam;
}

/** A files-mode exam with `files` declared (default: two small files). */
export function filesBody(
  name: string,
  files: { name: string; size: number }[] = [
    { name: 'a/1.dcm', size: 300 },
    { name: 'a/2.dcm', size: 200 },
  ],
  extra: Json = {},
): Json {
  return { name, files, ...extra };
}

export type PutResult = { status: number; json: Json; headers: Headers };

/** PUT bytes to a presigned URL with fetch (Content-Length set from the body, no Authorization). */
export async function put(url: string, data: Buffer): Promise<PutResult> {
  const res = await fetch(url, { method: 'PUT', body: new Uint8Array(data) });
  const text = await res.text();
  let json: Json = {};
  if ((res.headers.get('content-type') ?? '').includes('json') && text) json = JSON.parse(text) as Json;
  return { status: res.status, json, headers: res.headers };
}

/** PUT every declared file of a created exam with its deterministic bytes. */
export async function uploadAll(exam: CreatedExam, files: { name: string; size: number }[]): Promise<void> {
  for (const u of exam.upload_urls ?? []) {
    const f = files.find((x) => x.name === u.name);
    if (!f) throw new Error(`no declared file ${u.name}`);
    const r = await put(u.url, bytesFor(f.name, f.size));
    expect(r.status).toBe(200);
  }
}

/** Create, upload and confirm: a ready exam. */
export async function readyExam(info: EmulatorInfo, key: string, body: Json): Promise<CreatedExam> {
  const exam = await createExam(info, key, body);
  await uploadAll(exam, body['files'] as { name: string; size: number }[]);
  const c = await api(info, key, 'POST', `/exams/${exam.id}/confirm`);
  if (c.status !== 200) throw new Error(`confirm → ${c.status} ${JSON.stringify(c.json)}`);
  return { ...exam, ...c.json } as CreatedExam;
}

/**
 * A raw PUT through node:http, for what fetch will not send: a Content-Length that differs from the
 * body, or a body cut off mid-way (`abortAfter` bytes, then the socket is destroyed).
 */
export function rawPut(
  url: string,
  opts: { contentLength?: number; body: Buffer; abortAfter?: number },
): Promise<{ status: number; body: string } | 'aborted'> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'PUT',
        headers: opts.contentLength === undefined ? {} : { 'Content-Length': String(opts.contentLength) },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', (err) => (opts.abortAfter !== undefined ? resolve('aborted') : reject(err)));
    if (opts.abortAfter !== undefined) {
      req.write(opts.body.subarray(0, opts.abortAfter), () => setTimeout(() => req.destroy(), 50));
      return;
    }
    // Without a Content-Length the body goes chunked.
    if (opts.contentLength === undefined) req.write(opts.body);
    req.end(opts.contentLength === undefined ? undefined : opts.body);
  });
}

export type ActivityItem = {
  id: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  data: Json;
  created_at: string;
};

/** Activity entries of an action for one exam, newest first (GET /activity). */
export async function activityOf(
  info: EmulatorInfo,
  key: string,
  action: string,
  examId?: string,
): Promise<ActivityItem[]> {
  const r = await api(info, key, 'GET', `/activity?limit=100&action=${encodeURIComponent(action)}`);
  expect(r.status).toBe(200);
  const items = r.json['activity'] as ActivityItem[];
  return examId === undefined ? items : items.filter((a) => a.resource_id === examId || a.data['exam_id'] === examId);
}

/** Status and body text of a public (non-API) page. */
export async function getPage(url: string): Promise<{ status: number; text: string; type: string }> {
  const res = await fetch(url);
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') ?? '' };
}
