import { createHash } from 'node:crypto';
import { beforeAll } from 'vitest';
import { createApiClient, type ApiClient, type ApiClientOptions } from '../../../main/core/api/client';
import type { CreatedExam, UploadFile } from '../../../main/core/api/endpoints/exam-schemas';
import type { TransportEvent } from '../../../main/core/api/http/http';
import type { EmulatorKeys, EmulatorProcess } from '../emulator/emulator';
import { emulatorScene } from '../emulator/emulator-scene';

export type Recorded = { client: ApiClient; events: TransportEvent[] };

/**
 * A client for one of the emulator's keys, with short back-offs so retry tests stay quick, and a
 * log of every attempt it makes.
 */
export function clientFor(
  emu: EmulatorProcess,
  key: keyof EmulatorKeys | string,
  options: Partial<ApiClientOptions> = {},
): Recorded {
  const events: TransportEvent[] = [];
  const apiKey = key in emu.info.keys ? emu.info.keys[key as keyof EmulatorKeys] : key;
  const client = createApiClient({
    baseUrl: emu.info.base_url,
    apiKey,
    retry: { baseMs: 5, capMs: 20 },
    onEvent: (e) => events.push(e),
    ...options,
  });
  return { client, events };
}

/** One emulator for the file's tests and a client for its 'pro' key, made before them (the emulator is disposed of after). */
export function proClientScene(): { readonly emulator: EmulatorProcess; readonly client: ApiClient } {
  const scene = emulatorScene();
  let client: ApiClient | undefined;
  beforeAll(() => {
    client = clientFor(scene.emulator, 'pro').client;
  });
  return {
    get emulator(): EmulatorProcess {
      return scene.emulator;
    },
    get client(): ApiClient {
      if (!client) throw new Error('the client is not made yet: read it inside a test or a hook');
      return client;
    },
  };
}

/** The value, or a test failure naming what was missing. */
export function must<T>(value: T | null | undefined, what = 'value'): T {
  if (value === null || value === undefined) throw new Error(`expected ${what}`);
  return value;
}

/** Attempts the client sent (429-refused ones included). */
export function attempts(events: TransportEvent[], method?: string, path?: string): number {
  return events.filter((e) => e.type === 'attempt' && (!method || e.method === method) && (!path || e.path === path))
    .length;
}

/** Deterministic file contents of a given size. */
export function fileBytes(name: string, size: number): Buffer {
  const out = Buffer.alloc(size);
  const seed = createHash('sha256').update(name).digest();
  for (let i = 0; i < size; i++) out[i] = seed[i % seed.length] ?? 0;
  return out;
}

/** PUTs each file to its presigned URL, as the upload engine would. */
export async function uploadFiles(
  created: { upload_urls?: CreatedExam['upload_urls'] },
  files: UploadFile[],
): Promise<void> {
  for (const u of created.upload_urls ?? []) {
    const f = files.find((x) => x.name === u.name);
    if (!f) throw new Error(`no such file ${u.name}`);
    const res = await fetch(u.url, {
      method: 'PUT',
      body: new Uint8Array(fileBytes(f.name, f.size)),
      headers: { 'Content-Length': String(f.size) },
    });
    if (!res.ok) throw new Error(`PUT ${u.name} → ${res.status}: ${await res.text()}`);
  }
}

/** Creates a files-mode exam, uploads its files and confirms it. */
export async function readyExam(
  client: ApiClient,
  fields: Partial<{
    name: string;
    patient_name: string;
    patient_id: string;
    exam_type: 'cbct' | 'radiografia' | 'mesh' | 'atm';
  }> = {},
) {
  const files = [
    { name: 'series1/IM0001.dcm', size: 2048 },
    { name: 'series1/IM0002.dcm', size: 3000 },
  ];
  const created = await client.exams.create({ name: fields.name ?? 'CBCT maxilar', ...fields, files });
  await uploadFiles(created, files);
  const exam = await client.exams.confirm(created.id);
  return { created, exam, files };
}

/** A tiny valid PNG (1×1, opaque) as base64, for signature images. */
export const PNG_1X1_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A minimal well-formed PDF document. */
export function minimalPdf(title = 'Informe'): Uint8Array {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>`,
    `<< /Length ${`BT /F1 12 Tf 20 100 Td (${title}) Tj ET`.length} >>\nstream\nBT /F1 12 Tf 20 100 Td (${title}) Tj ET\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}
