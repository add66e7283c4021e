// Robustness: random bytes and damaged real files never make the header reader throw or hang;
// every input ends as a header (or DICOMDIR / mesh) or as a skip reason.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ProbeOutcome } from '@main/core/dicom';
import { parseDicomPrefix, scanFolder, scanPoolStatus, stopScanWorkers } from '@main/core/dicom';
import { probeFiles } from '@main/core/dicom/scan/scan-pool';
import { JAPANESE_NAME, newUid, writeCbctExport, writeDicom } from '@fixtures/dicom/generate';

const SEED = 0x5ca9b41d;
const INITIAL = 64 * 1024;

/** mulberry32: a small seeded generator, so a failure can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Reads `file` the way the probe does: a first prefix, longer ones while the reader asks. */
function readAsProbe(file: Uint8Array): ProbeOutcome {
  let len = Math.min(file.length, INITIAL);
  for (let rounds = 0; rounds < 64; rounds++) {
    const step = parseDicomPrefix(file.subarray(0, len), file.length);
    if (step.kind !== 'need_more') return step;
    if (step.bytes <= len) throw new Error('reader asked for no more bytes than it had');
    len = Math.min(step.bytes, file.length);
  }
  throw new Error('reader kept asking for more');
}

const VALID_KINDS = new Set(['dicom', 'dicomdir', 'skipped']);
const REASONS = new Set(['not_dicom', 'truncated', 'malformed', 'unreadable']);

function check(outcome: ProbeOutcome): void {
  expect(VALID_KINDS.has(outcome.kind)).toBe(true);
  if (outcome.kind === 'skipped') expect(REASONS.has(outcome.reason)).toBe(true);
  if (outcome.kind === 'dicom') {
    expect(outcome.header.study_uid).not.toBe('');
    expect(typeof outcome.header.patient_name).toBe('string');
  }
}

let tmp: string;
const seeds: Buffer[] = [];

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'scanbridge-fuzz-'));
  const sequence = [
    '(0008,1140) SQ (Sequence with undefined length #=1)',
    '(fffe,e000) na (Item with undefined length #=2)',
    '(0008,1150) UI [1.2.840.10008.5.1.4.1.1.2]',
    '(0008,1155) UI [1.2.3.4.5]',
    '(fffe,e00d) na (ItemDelimitationItem)',
    '(fffe,e0dd) na (SequenceDelimitationItem)',
  ];
  const common = {
    studyUid: newUid(),
    seriesUid: newUid(),
    rows: 8,
    cols: 8,
    patientId: 'FZ1',
    birthDate: '19800131',
    studyDate: '20260302',
  };
  const files = [
    await writeDicom(join(tmp, 'explicit.dcm'), {
      ...common,
      patientName: 'MUÑOZ^JUAN CARLOS',
      charset: 'latin1',
      extraDump: sequence,
    }),
    await writeDicom(join(tmp, 'implicit.dcm'), {
      ...common,
      patientName: 'PÉREZ^MARÍA JOSÉ',
      charset: 'utf8',
      transferSyntax: 'implicit',
      extraDump: sequence,
    }),
    await writeDicom(join(tmp, 'raw.dcm'), { ...common, patientName: 'RAW^DATA', transferSyntax: 'raw-implicit' }),
    await writeDicom(join(tmp, 'jp.dcm'), { ...common, patientName: JAPANESE_NAME.bytes, charset: 'iso2022-jp' }),
    await writeDicom(join(tmp, 'long.dcm'), { ...common, patientName: 'LARGO^X', privateBlobBytes: 70_000 }),
  ];
  execFileSync('dcmconv', ['+td', join(tmp, 'explicit.dcm'), join(tmp, 'deflated.dcm')]);
  const cbct = await writeCbctExport(join(tmp, 'cbct'), { volumeSlices: 2, scoutSlices: 1 });
  for (const p of [...files.map((f) => f.path), join(tmp, 'deflated.dcm'), cbct.dicomdir as string])
    seeds.push(readFileSync(p));
});

afterAll(async () => {
  await stopScanWorkers();
  rmSync(tmp, { recursive: true, force: true });
});

describe('header reader under fuzzing', () => {
  it('reads every undamaged seed file', () => {
    expect(seeds.map((s) => readAsProbe(s).kind)).toEqual([
      'dicom',
      'dicom',
      'dicom',
      'dicom',
      'dicom',
      'dicom',
      'dicomdir',
    ]);
  });

  it('answers 3000 random and damaged inputs with a header or a skip reason, quickly', () => {
    const rand = rng(SEED);
    const int = (n: number): number => Math.floor(rand() * n);
    let slowest = 0;
    const started = performance.now();
    const kinds = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      let input: Buffer;
      const mode = i % 6;
      if (mode === 0) {
        input = Buffer.from(Array.from({ length: int(4096) }, () => int(256)));
      } else if (mode === 1) {
        // Random bytes behind a real-looking preamble, or a raw data set start.
        input = Buffer.from(Array.from({ length: 132 + int(2048) }, () => int(256)));
        if (rand() < 0.5) input.write('DICM', 128, 'latin1');
        else input.set([0x08, 0x00, 0x05, 0x00], 0);
      } else {
        const seed = seeds[int(seeds.length)] as Buffer;
        input = Buffer.from(seed.subarray(0, mode === 2 ? int(seed.length + 1) : seed.length));
        const flips = mode === 2 ? 0 : 1 + int(8);
        const headerSpan = Math.min(input.length, 2048);
        for (let k = 0; k < flips && headerSpan > 0; k++) {
          const at = int(headerSpan);
          if (mode === 5) input.writeUInt32LE(0xffffffff - int(16), Math.min(at, Math.max(0, input.length - 4)));
          else input[at] = (input[at] as number) ^ (1 << int(8));
        }
        if (mode === 4) input = input.subarray(0, int(input.length + 1));
      }
      const t = performance.now();
      let outcome: ProbeOutcome;
      try {
        outcome = readAsProbe(input);
      } catch (e) {
        throw new Error(`case ${i} (seed ${SEED}) threw: ${String(e)}`);
      }
      slowest = Math.max(slowest, performance.now() - t);
      check(outcome);
      const key = outcome.kind === 'skipped' ? outcome.reason : outcome.kind;
      kinds.set(key, (kinds.get(key) ?? 0) + 1);
    }
    expect(slowest).toBeLessThan(500);
    expect(performance.now() - started).toBeLessThan(20_000);
    // The damage really exercised every path.
    for (const k of ['dicom', 'not_dicom', 'truncated', 'malformed']) expect(kinds.get(k) ?? 0).toBeGreaterThan(0);
  });

  it('scans a folder of 300 damaged files on the worker pool without losing any', async () => {
    const rand = rng(SEED + 1);
    const dir = join(tmp, 'damaged');
    mkdirSync(dir);
    for (let i = 0; i < 300; i++) {
      const seed = seeds[Math.floor(rand() * seeds.length)] as Buffer;
      const copy = Buffer.from(seed.subarray(0, Math.floor(rand() * (seed.length + 1))));
      for (let k = 0; k < 3 && copy.length > 0; k++) {
        const at = Math.floor(rand() * Math.min(copy.length, 1024));
        copy[at] = (copy[at] as number) ^ 0xff;
      }
      writeFileSync(join(dir, `f${i}.dcm`), copy);
    }
    const paths = Array.from({ length: 300 }, (_, i) => join(dir, `f${i}.dcm`));
    // Start the workers and wait until they are ready, so that they, not this thread, read the files.
    await probeFiles(paths);
    await vi.waitFor(() => expect(scanPoolStatus().ready).toBe(2), { timeout: 20_000, interval: 50 });
    const pooled = await probeFiles(paths);
    expect(scanPoolStatus().ready).toBe(2);
    expect(pooled.map((p) => p.path)).toEqual(paths);
    for (const p of pooled) check(p.outcome);
    expect(await probeFiles(paths, { workers: false })).toEqual(pooled);
    const result = await scanFolder(dir);
    const dicomdirs = pooled.filter((p) => p.outcome.kind === 'dicomdir').length;
    expect(result.studies.reduce((n, s) => n + s.files, 0) + result.skipped.length + dicomdirs).toBe(300);
  });
});
