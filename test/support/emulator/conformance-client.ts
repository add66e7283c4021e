// Shared pieces of the black-box conformance suite. Everything here is written from API-v1.md and
// CONTRACTS.md only: the emulator is driven over real HTTP, never imported.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { ZipFile } from 'yazl';
import { expect } from 'vitest';
import { z } from 'zod';
import { api, type EmulatorInfo } from './emulator';

export const Obj = z.record(z.string(), z.unknown());

/** API-v1.md: "Timestamps are ISO 8601." */
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
export const isoTimestamp = z.string().regex(ISO_TIMESTAMP, 'ISO 8601 timestamp');

export type ApiResult = Awaited<ReturnType<typeof api>>;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** CONTRACTS.md §1: every non-2xx JSON answer is {error: {code, message, ...}}. */
export const ErrorBody = z.object({
  error: z.object({ code: z.string().regex(/^[a-z][a-z0-9_]*$/), message: z.string().min(1) }).loose(),
});

/** Asserts a well-formed error answer, optionally with a fixed status and code. */
export function expectError(res: ApiResult, status?: number | number[], code?: string | string[]): void {
  const where = `answer was ${res.status} ${JSON.stringify(res.json).slice(0, 400)}`;
  if (status === undefined) expect(res.status, where).toBeGreaterThanOrEqual(400);
  else if (Array.isArray(status)) expect(status, where).toContain(res.status);
  else expect(res.status, where).toBe(status);
  expect(res.headers.get('content-type') ?? '', where).toContain('json');
  const parsed = ErrorBody.safeParse(res.json);
  expect(parsed.success, where).toBe(true);
  if (code !== undefined) {
    const codes = Array.isArray(code) ? code : [code];
    expect(codes, where).toContain(res.json.error?.code);
  }
}

/** CONTRACTS.md: validation_error is a 400 with details [{field, message}]. */
export function expectValidationError(res: ApiResult, field?: string): void {
  expectError(res, 400, 'validation_error');
  const details = z
    .array(z.object({ field: z.string(), message: z.string() }).loose())
    .parse(res.json.error?.['details']);
  if (field !== undefined) {
    const where = JSON.stringify(details);
    expect(
      details.some((d) => d.field === field || d.field.startsWith(`${field}.`) || d.field.startsWith(`${field}[`)),
      where,
    ).toBe(true);
  }
}

/**
 * A §8 limit passed: CONTRACTS.md allows limit_exceeded (409 or 400) and, being input, validation_error (400).
 */
export function expectLimitRejected(res: ApiResult): void {
  expectError(res, [400, 409], ['limit_exceeded', 'validation_error']);
  if (res.json.error?.code === 'validation_error') expect(res.status).toBe(400);
}

/** Asserts a 2xx answer with a readable failure message. */
export function expectOk(res: ApiResult, status?: number): void {
  const where = `answer was ${res.status} ${JSON.stringify(res.json).slice(0, 600)}`;
  if (status !== undefined) expect(res.status, where).toBe(status);
  else {
    expect(res.status, where).toBeGreaterThanOrEqual(200);
    expect(res.status, where).toBeLessThan(300);
  }
}

/** The single array held by a list answer whose wrapper name the spec leaves open. */
export function listIn(json: unknown, preferred?: string): unknown[] {
  if (Array.isArray(json)) return json;
  const obj = z.record(z.string(), z.unknown()).parse(json);
  if (preferred && Array.isArray(obj[preferred])) return obj[preferred] as unknown[];
  const arrays = Object.values(obj).filter((v): v is unknown[] => Array.isArray(v));
  if (arrays.length !== 1) throw new Error(`expected one list in ${JSON.stringify(json).slice(0, 300)}`);
  return arrays[0] ?? [];
}

/**
 * The record itself, or the record under `name` when the answer wraps it (API-v1.md names the record
 * returned, e.g. "one referrer", but not whether it is wrapped).
 */
export function unwrap(json: unknown, name: string): Record<string, unknown> {
  const obj = Obj.parse(json);
  const inner = obj[name];
  if (inner && typeof inner === 'object' && !Array.isArray(inner) && !('id' in obj)) return Obj.parse(inner);
  return obj;
}

/** Every string found anywhere in a JSON value. */
export function stringsIn(json: unknown): string[] {
  if (typeof json === 'string') return [json];
  if (Array.isArray(json)) return json.flatMap(stringsIn);
  if (json && typeof json === 'object') return Object.values(json).flatMap(stringsIn);
  return [];
}

export const sha256Hex = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

export const UploadUrl = z.object({ name: z.string(), url: z.string().url(), expires_at: isoTimestamp }).loose();
export const CreatedFilesExam = z
  .object({ id: z.string().min(1), status: z.string(), upload_urls: z.array(UploadUrl) })
  .loose();
export const CreatedZipExam = z
  .object({
    id: z.string().min(1),
    status: z.string(),
    upload_url: z.object({ url: z.string().url(), expires_at: isoTimestamp }).loose(),
  })
  .loose();

export type FileSpec = { name: string; bytes: Uint8Array };

export function files(count: number, prefix = 'slice', size = 16): FileSpec[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `${prefix}-${String(i + 1).padStart(4, '0')}.dcm`,
    bytes: Buffer.alloc(size, i % 251),
  }));
}

/** A presigned PUT: no Authorization header, raw bytes, Content-Length from the body. */
export async function put(url: string, bytes: Uint8Array): Promise<Response> {
  const res = await fetch(url, { method: 'PUT', body: new Uint8Array(bytes) });
  await res.arrayBuffer();
  return res;
}

export async function getBytes(url: string, key?: string): Promise<{ status: number; type: string; bytes: Buffer }> {
  const res = await fetch(url, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

/** Creates a files-mode exam; returns its id and upload URLs (CONTRACTS.md: same order as the request). */
export async function createExam(
  info: EmulatorInfo,
  key: string,
  fileSpecs: FileSpec[],
  extra: Record<string, unknown> = {},
): Promise<{ id: string; urls: z.infer<typeof UploadUrl>[]; json: Record<string, unknown> }> {
  const res = await api(info, key, 'POST', '/exams', {
    name: 'Conformance exam',
    ...extra,
    files: fileSpecs.map((f) => ({ name: f.name, size: f.bytes.length })),
  });
  expectOk(res, 201);
  const exam = CreatedFilesExam.parse(res.json);
  return { id: exam.id, urls: exam.upload_urls, json: res.json };
}

/** Creates an exam, uploads every file and confirms it. */
export async function readyExam(
  info: EmulatorInfo,
  key: string,
  extra: Record<string, unknown> = {},
  fileSpecs: FileSpec[] = files(2),
): Promise<string> {
  const { id, urls } = await createExam(info, key, fileSpecs, extra);
  for (const [i, f] of fileSpecs.entries()) {
    const res = await put(urls[i]?.url ?? '', f.bytes);
    expect(res.status, `upload of ${f.name}`).toBeLessThan(300);
  }
  const confirm = await api(info, key, 'POST', `/exams/${id}/confirm`);
  expectOk(confirm);
  return id;
}

/** Runs `count` calls with a few in flight at a time; returns their statuses in call order. */
export async function burst(count: number, call: (i: number) => Promise<number>, parallel = 8): Promise<number[]> {
  const out: number[] = new Array<number>(count);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      out[i] = await call(i);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return out;
}

/** Polls until `check` returns a value (not undefined) or the time runs out. */
export async function waitFor<T>(
  check: () => T | undefined | Promise<T | undefined>,
  ms = 5000,
  what = 'condition',
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

// ---- binary fixtures -------------------------------------------------------------------------

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = (crcTable[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** A real RGB PNG (a dark stroke on white), as a signature image would be. */
export function makePng(width = 64, height = 24): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3, 0xff);
    row[0] = 0;
    for (let x = 0; x < width; x++) {
      if (Math.abs(y - Math.round(height / 2 + (height / 3) * Math.sin(x / 6))) <= 1)
        row.fill(0x10, 1 + x * 3, 4 + x * 3);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A small valid one-page PDF report. */
export async function makePdf(text = 'Informe radiológico de prueba'): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText(text.normalize('NFD').replace(/[\u0300-\u036f]/g, ''), { x: 50, y: 780, size: 14, font });
  return Buffer.from(await doc.save());
}

function dicomElement(group: number, element: number, vr: string, value: Buffer): Buffer {
  const long = ['OB', 'OW', 'SQ', 'UN', 'UT'].includes(vr);
  const head = Buffer.alloc(long ? 12 : 8);
  head.writeUInt16LE(group, 0);
  head.writeUInt16LE(element, 2);
  head.write(vr, 4, 'ascii');
  if (long) head.writeUInt32LE(value.length, 8);
  else head.writeUInt16LE(value.length, 6);
  return Buffer.concat([head, value]);
}
function dicomString(s: string, pad = ' '): Buffer {
  const b = Buffer.from(s, 'latin1');
  return b.length % 2 ? Buffer.concat([b, Buffer.from(pad)]) : b;
}

/** A minimal Part-10 DICOM file (explicit VR little endian, CT image storage, tiny pixel data). */
export function makeDicom(sopInstanceUid: string, patientName = 'PEREZ^JUAN'): Buffer {
  const ts = '1.2.840.10008.1.2.1';
  const sopClass = '1.2.840.10008.5.1.4.1.1.2';
  const metaBody = Buffer.concat([
    dicomElement(0x0002, 0x0001, 'OB', Buffer.from([0, 1])),
    dicomElement(0x0002, 0x0002, 'UI', dicomString(sopClass, '\0')),
    dicomElement(0x0002, 0x0003, 'UI', dicomString(sopInstanceUid, '\0')),
    dicomElement(0x0002, 0x0010, 'UI', dicomString(ts, '\0')),
  ]);
  const groupLength = Buffer.alloc(4);
  groupLength.writeUInt32LE(metaBody.length);
  const dataset = Buffer.concat([
    dicomElement(0x0008, 0x0016, 'UI', dicomString(sopClass, '\0')),
    dicomElement(0x0008, 0x0018, 'UI', dicomString(sopInstanceUid, '\0')),
    dicomElement(0x0008, 0x0060, 'CS', dicomString('CT')),
    dicomElement(0x0010, 0x0010, 'PN', dicomString(patientName)),
    dicomElement(0x0010, 0x0020, 'LO', dicomString('12345678')),
    dicomElement(0x0028, 0x0010, 'US', Buffer.from([2, 0])),
    dicomElement(0x0028, 0x0011, 'US', Buffer.from([2, 0])),
    dicomElement(0x7fe0, 0x0010, 'OW', Buffer.alloc(8, 7)),
  ]);
  return Buffer.concat([
    Buffer.alloc(128),
    Buffer.from('DICM', 'ascii'),
    dicomElement(0x0002, 0x0000, 'UL', groupLength),
    metaBody,
    dataset,
  ]);
}

/**
 * Builds a stored (uncompressed) ZIP. Entry names may contain `..` segments: yazl refuses those, so they
 * are written under a same-length placeholder and patched in the finished bytes.
 */
export async function makeZip(entries: { name: string; bytes: Buffer }[]): Promise<Buffer> {
  const zip = new ZipFile();
  const patches: [Buffer, Buffer][] = [];
  for (const [i, e] of entries.entries()) {
    let name = e.name;
    if (name.split('/').includes('..')) {
      const placeholder = `P${String(i).padStart(3, '0')}`.padEnd(name.length, 'x');
      patches.push([Buffer.from(placeholder), Buffer.from(name)]);
      name = placeholder;
    }
    zip.addBuffer(e.bytes, name, { compress: false, mtime: new Date('2026-03-02T10:00:00Z') });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  const out = Buffer.concat(chunks);
  for (const [from, to] of patches) {
    let at = out.indexOf(from);
    while (at !== -1) {
      to.copy(out, at);
      at = out.indexOf(from, at + from.length);
    }
  }
  return out;
}

// ---- webhook receiver ------------------------------------------------------------------------

export type Delivery = { path: string; headers: IncomingHttpHeaders; raw: Buffer; body: unknown; at: number };

/**
 * A real HTTP receiver on 127.0.0.1. Each path answers with the status set for it (200 unless told),
 * optionally after a delay, and records every request with its raw body.
 */
export class Receiver {
  readonly deliveries: Delivery[] = [];
  private readonly status = new Map<string, number>();
  private readonly delay = new Map<string, number>();
  private constructor(
    private readonly server: Server,
    readonly base: string,
  ) {}

  static async start(): Promise<Receiver> {
    const holder: { self?: Receiver } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const path = req.url ?? '/';
        let body: unknown = undefined;
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          body = undefined;
        }
        const self = holder.self;
        self?.deliveries.push({ path, headers: req.headers, raw, body, at: Date.now() });
        const answer = (): void => {
          res.writeHead(self?.status.get(path) ?? 200, { 'Content-Type': 'text/plain' });
          res.end('ok');
        };
        const wait = self?.delay.get(path) ?? 0;
        if (wait > 0) setTimeout(answer, wait);
        else answer();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    holder.self = new Receiver(server, `http://127.0.0.1:${port}`);
    return holder.self;
  }

  answer(path: string, status: number, delayMs = 0): void {
    this.status.set(path, status);
    this.delay.set(path, delayMs);
  }

  at(path: string): Delivery[] {
    return this.deliveries.filter((d) => d.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

/** API-v1.md §6.3: "sha256=" + base64(HMAC-SHA-256(secret, raw body)), compared in constant time. */
export function signatureValid(d: Delivery, secret: string): boolean {
  const header = d.headers['x-service-signature'];
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(d.raw).digest('base64')}`);
  const got = Buffer.from(header);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

export const EventBody = z.object({
  id: z.string().startsWith('evt_'),
  type: z.string(),
  created_at: isoTimestamp,
  data: Obj,
});
