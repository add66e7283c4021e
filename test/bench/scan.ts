// Benchmark: scanning a 1500-slice CT export (512×512, 16-bit) with ScanBridge's DICOM reader
// versus DCMTK's `dcmdump +sb PixelData` over the same files, both with a warm page cache; once with
// V8's defaults (as the desktop app runs the core) and once with the `scanbridge` launcher's options.
// Run alone with `npx tsx test/bench/scan.ts` (prints the section as JSON).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { scanFolder, scanPoolStatus, stopScanWorkers } from '../../main/core/dicom';
import { writeCtSeries } from '../fixtures/dicom/generate';
import { cliNodeOptions } from '../support/repo-paths';
import type { Bench, BenchSection } from './types';

const SLICES = 1500;
const ROUNDS = 9;
// Keep each dcmdump command line well under the kernel's argument limit.
const MAX_ARG_BYTES = 100_000;

function batches(names: string[]): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const n of names) {
    if (bytes + n.length + 1 > MAX_ARG_BYTES && current.length > 0) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(n);
    bytes += n.length + 1;
  }
  if (current.length > 0) out.push(current);
  return out;
}

function dcmdump(dir: string, names: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    // +sb PixelData: stop before the pixel data, like our reader; output is thrown away.
    const child = spawn('dcmdump', ['-q', '+sb', 'PixelData', ...names], { cwd: dir, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`dcmdump exited with ${code}`))));
  });
}

async function timeDcmdump(dir: string, names: string[]): Promise<number> {
  const started = performance.now();
  for (const batch of batches(names)) await dcmdump(dir, batch);
  return performance.now() - started;
}

async function timeScan(dir: string): Promise<number> {
  const started = performance.now();
  const result = await scanFolder(dir);
  const elapsed = performance.now() - started;
  if (result.studies.length !== 1 || result.studies[0]?.files !== SLICES)
    throw new Error('scan did not find the generated series');
  return elapsed;
}

const range = (xs: number[]): string => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)} ms`;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

type Measured = { ours: number[]; theirs: number[]; coldMs: number; ready: number; peakMb: number };

/** The timed rounds in this process, with whatever Node options it was started with. */
async function measure(dir: string, names: string[]): Promise<Measured> {
  try {
    // Untimed warm-up: page cache, JIT, and the scan worker pool (the app keeps it between scans).
    await timeDcmdump(dir, names);
    const coldMs = await timeScan(dir);
    for (let waited = 0; scanPoolStatus().ready < 2 && waited < 10_000; waited += 20)
      await new Promise((r) => setTimeout(r, 20));
    // A few passes so the workers' code is optimised too, as in an app that has been running a while.
    for (let i = 0; i < 3; i++) await timeScan(dir);
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      theirs.push(await timeDcmdump(dir, names));
      ours.push(await timeScan(dir));
    }
    const ready = scanPoolStatus().ready;
    return { ours, theirs, coldMs, ready, peakMb: process.resourceUsage().maxRSS / 1024 };
  } finally {
    await stopScanWorkers();
  }
}

/** The measurement in a Node process of its own, started with `nodeOptions` (`[]`: V8's defaults). */
function measureInChild(nodeOptions: readonly string[], dir: string): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...nodeOptions, '--import', 'tsx', fileURLToPath(import.meta.url), '--measure', dir],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`the scan measurement exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop() ?? '{}') as Measured);
    });
  });
}

export const benchScan: Bench = async (): Promise<BenchSection> => {
  const dir = await mkdtemp(join(tmpdir(), 'scanbridge-bench-scan-'));
  try {
    const generated = performance.now();
    const series = await writeCtSeries(dir, {
      slices: SLICES,
      rows: 512,
      cols: 512,
      patientName: 'MUÑOZ^JUAN CARLOS',
      charset: 'latin1',
      patientId: 'B-1500',
      studyDate: '20260302',
    });
    const generateMs = performance.now() - generated;
    const names = series.files.map((f) => basename(f.path));
    // Flush the freshly written files to disk so write-back does not run during the timed rounds.
    spawnSync('sync');
    const runs = [
      { label: "V8's defaults, no options (as in the app)", options: [] as readonly string[] },
      { label: `the launcher's options, ${cliNodeOptions.join(' ')}`, options: cliNodeOptions },
    ];
    const figures: BenchSection['figures'] = [];
    const ready: number[] = [];
    for (const { label, options } of runs) {
      const m = await measureInChild(options, dir);
      ready.push(m.ready);
      const scanMs = median(m.ours);
      const dumpMs = median(m.theirs);
      const ratio = scanMs / dumpMs;
      figures.push(
        {
          name: `ScanBridge scanFolder (${label})`,
          value: Math.round(SLICES / (scanMs / 1000)),
          unit: 'files/s',
          note: `median of ${ROUNDS}: ${scanMs.toFixed(1)} ms (${range(m.ours)})`,
        },
        {
          name: `dcmdump +sb PixelData (baseline, same rounds as ${label})`,
          value: Math.round(SLICES / (dumpMs / 1000)),
          unit: 'files/s',
          note: `median of ${ROUNDS}: ${dumpMs.toFixed(1)} ms (${range(m.theirs)}), ${batches(names).length} process(es)`,
        },
        {
          name: `ScanBridge first scan of the process (workers starting, not optimised; ${label})`,
          value: Math.round(SLICES / (m.coldMs / 1000)),
          unit: 'files/s',
          note: `${m.coldMs.toFixed(1)} ms, not part of the goal`,
        },
        {
          name: `ScanBridge time / dcmdump time (${label})`,
          value: Number(ratio.toFixed(3)),
          unit: '×',
          goal: '≤ 0.5 × dcmdump',
          met: ratio <= 0.5,
        },
        {
          name: `peak RSS of the measuring process (${label}; includes tsx's loader)`,
          value: Math.round(m.peakMb),
          unit: 'MB',
        },
      );
    }
    return {
      title: `DICOM scan: ${SLICES} CT slices (512×512, 16-bit, ${(series.bytes / 1e6).toFixed(0)} MB), warm cache`,
      figures,
      details: `Each configuration runs in a Node process of its own (through tsx) over the same files. Workers ready during the timed rounds: ${ready.join(' and ')} of 2. Fixture generated in ${(generateMs / 1000).toFixed(1)} s (dump2dcm template + patched copies). Each round runs dcmdump over all files, then scanFolder (walk, 2 worker threads reading header prefixes, grouping); untimed warm-up passes of each first (the scan's until its workers are ready and optimised).`,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--measure');
  if (at >= 0) {
    // A measuring child (see measureInChild): the folder holds only the series, read back in name order.
    const dir = process.argv[at + 1] ?? '';
    const names = (await readdir(dir)).sort();
    process.stdout.write(`${JSON.stringify(await measure(dir, names))}\n`);
  } else process.stdout.write(`${JSON.stringify(await benchScan(), null, 2)}\n`);
}
