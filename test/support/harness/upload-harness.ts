// Shared pieces of the upload integration tests: real files on disk, the real API client on a real
// emulator, and ways to look at what the service ended up holding.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { createApiClient, type ApiClient } from '../../../main/core/api';
import { examsPortFromClient } from '../../../main/core/upload/ports/api-port';
import type { UploadEvent } from '../../../main/core/upload/job/engine';
import { UploadError } from '../../../main/core/upload/ports/upload-errors';
import type { PlanFileInput } from '../../../main/core/upload/plan/plan';
import type { CreatedExam, ExamsPort } from '../../../main/core/upload/ports/ports';
import type { EmulatorOptions, EmulatorProcess } from '../emulator/emulator';
import { emulatorScene, type EmulatorScene } from '../emulator/emulator-scene';
import { writePhantomSeries } from '../data/phantom';

export type UploadScene = EmulatorScene & {
  /** `<scratch>/<name>`, made if missing. */
  folder: (name: string) => string;
  /** The engine's data folder, `<scratch>/data`. */
  dataDir: () => string;
};

/** One emulator (started with `options`) and one scratch folder `<temp>/<prefix>XXXXXX` for a file of upload tests. */
export function uploadScene(prefix: string, options?: EmulatorOptions): UploadScene {
  const scene = emulatorScene({ emulator: options, scratch: prefix });
  return {
    get emulator(): EmulatorProcess {
      return scene.emulator;
    },
    get scratch(): string {
      return scene.scratch;
    },
    folder: (name) => {
      const d = join(scene.scratch, name);
      mkdirSync(d, { recursive: true });
      return d;
    },
    dataDir: () => join(scene.scratch, 'data'),
  };
}

/** The UploadError a promise rejects with (the test fails if it resolves or rejects with something else). */
export async function failure(p: Promise<unknown>): Promise<UploadError> {
  const err: unknown = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UploadError);
  return err as UploadError;
}

/** Writes `count` files of random bytes (sizes `size`, `size+1`, …) and returns them as plan input. */
export function makeFiles(dir: string, count: number, size: number, prefix = 'IMG'): PlanFileInput[] {
  const out: PlanFileInput[] = [];
  for (let i = 0; i < count; i++) {
    const name = `${prefix}${String(i).padStart(5, '0')}.dcm`;
    const path = join(dir, name);
    writeFileSync(path, randomBytes(size + i));
    out.push({ path, name: `series1/${name}` });
  }
  return out;
}

export function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function fileSha(path: string): string {
  return sha256(readFileSync(path));
}

/** The API client and the engine's port for one key of the emulator. */
export function connect(
  emu: EmulatorProcess,
  key: keyof EmulatorProcess['info']['keys'] = 'ultra',
): { client: ApiClient; port: ExamsPort } {
  const client = createApiClient({ baseUrl: emu.info.base_url, apiKey: emu.info.keys[key] });
  return { client, port: examsPortFromClient(client) };
}

/** A port that remembers what POST /exams answered (to read the stored objects back afterwards). */
export function recording(port: ExamsPort): { port: ExamsPort; created: CreatedExam[] } {
  const created: CreatedExam[] = [];
  return {
    created,
    port: {
      ...port,
      createExam: async (input, o) => {
        const c = await port.createExam(input, o);
        created.push(c);
        return c;
      },
    },
  };
}

/** sha256 of every object of a files-mode exam, read back through its presigned URLs. */
export async function storedHashes(created: CreatedExam): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const u of created.upload_urls ?? []) {
    const res = await fetch(u.url);
    if (res.ok) out.set(u.name, sha256(new Uint8Array(await res.arrayBuffer())));
  }
  return out;
}

/** sha256 of every file the emulator stored for a zip-mode exam (read from its data folder), by name. */
export function zipStoredHashes(emu: EmulatorProcess, examId: string, names: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const n of names) {
    const object = `f-${sha256(Buffer.from(n, 'utf8')).slice(0, 40)}`;
    const path = join(emu.dataDir, 'objects', examId, object);
    if (existsSync(path)) out.set(n, sha256(readFileSync(path)));
  }
  return out;
}

/** A CBCT-like phantom (or noise) of `slices` DICOM files of 256 × 256 under `dir`, as plan input. */
export async function phantomFiles(
  dir: string,
  slices: number,
  kind: 'cbct' | 'noise' = 'cbct',
): Promise<PlanFileInput[]> {
  const s = await writePhantomSeries(dir, { slices, size: 256, kind });
  return s.files.map((f) => ({ path: f.path, name: relative(dir, f.path) }));
}

export function expectedHashes(files: readonly PlanFileInput[]): Map<string, string> {
  return new Map(files.map((f) => [f.name, fileSha(f.path)]));
}

/** Exams of the account named `name` (newest first). */
export async function examsNamed(
  client: ApiClient,
  name: string,
): Promise<
  {
    id: string;
    status: string | null | undefined;
    file_count: number | null | undefined;
    storage: number | null | undefined;
  }[]
> {
  const page = await client.exams.list({ limit: 100 });
  return page.exams
    .filter((e) => e.name === name)
    .map((e) => ({ id: e.id, status: e.status, file_count: e.file_count, storage: e.storage?.bytes }));
}

/** X-RateLimit-Remaining of a key, read with one GET /me (which itself counts). */
export async function remainingCalls(
  emu: EmulatorProcess,
  key: keyof EmulatorProcess['info']['keys'],
): Promise<number> {
  const res = await fetch(`${emu.info.base_url}/me`, { headers: { Authorization: `Bearer ${emu.info.keys[key]}` } });
  await res.arrayBuffer();
  return Number(res.headers.get('x-ratelimit-remaining'));
}

/** Resolves on the first event matching `pred`. */
export function nextEvent(
  on: (l: (e: UploadEvent) => void) => () => void,
  pred: (e: UploadEvent) => boolean,
): Promise<UploadEvent> {
  return new Promise((resolve) => {
    const off = on((e) => {
      if (pred(e)) {
        off();
        resolve(e);
      }
    });
  });
}

/** Engine options that keep fault tests fast: short stall time-out, short backoff. */
export const FAST = { stallTimeoutMs: 1500, backoff: { baseMs: 20, capMs: 200 }, doneFlushMs: 50 } as const;
