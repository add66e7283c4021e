// Benchmark: the DICOM listener (`scanbridge receive`, the real bundled command) receiving a
// 600-slice CBCT from DCMTK's storescu, against DCMTK's own storescp receiving the same images in
// the same run (rounds interleaved, medians compared); its peak RSS while receiving; and the time
// from the association's release (storescu's exit) to the exam being ready on the emulator. Every
// round sends a new study (new UIDs) to both receivers, so both always write new files, and the
// next round starts once the listener's exam is ready. Seven rounds: with three, the median was the
// slower of the two rounds after the first, and runs minutes apart gave 1.19× and 1.49×.
// Two listeners receive every study: one with the Node options of its launcher's first line
// (cliNodeOptions), as `scanbridge receive` runs, and one with none, V8's defaults, as the desktop
// app's agent runs inside Electron's main process. Every DCMTK end (storescu, storescp) runs with
// TCP_NODELAY=1, so the baseline is not slowed by Nagle's algorithm.
// Run alone with `npx tsx test/bench/receive.ts` (prints the section as JSON), or
// `npm run bench -- receive --update` to rewrite its section of RESULTS.md.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCtSeries } from '../fixtures/dicom/generate';
import { EmulatorProcess } from '../support/emulator/emulator';
import {
  DCMTK_ENV,
  dcmtk,
  listeningPort,
  type ReceiveCli,
  startReceive,
  storescu,
} from '../support/harness/receive-harness';
import { waitFor } from '../support/harness/watch-harness';
import type { BenchSection } from './types';
import { freePort } from '../support/network/free-port';
import { cliNodeOptions } from '../support/repo-paths';

const SLICES = 600;
const ROUNDS = 7;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Peak resident memory of a process so far (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function timed(f: () => Promise<{ code: number; stderr: string }>): Promise<number> {
  // Each receiver starts with no other writes in flight: the previous round's 75 MB (or upload)
  // flushed by the kernel during this round would slow whichever receiver came next.
  execFileSync('sync');
  const t0 = performance.now();
  const r = await f();
  if (r.code !== 0) throw new Error(`storescu failed: ${r.stderr.slice(0, 300)}`);
  return performance.now() - t0;
}

type Listener = {
  label: string;
  options: readonly string[];
  cli: ReceiveCli;
  ms: number[];
  ready: number[];
  peak: number;
};

export async function benchReceive(): Promise<BenchSection> {
  const work = await mkdtemp(join(tmpdir(), 'sb-bench-receive-'));
  const emulator = await EmulatorProcess.start();
  let storescp: ChildProcess | undefined;
  const listeners: Listener[] = [
    { label: 'launcher', options: cliNodeOptions },
    { label: "V8's defaults", options: [] },
  ].map(({ label, options }, i) => ({
    label,
    options,
    cli: startReceive(
      ['--port', '0', '--quiet', '1', '--json'],
      {
        SCANBRIDGE_API_URL: emulator.info.base_url,
        SCANBRIDGE_API_KEY: emulator.info.keys.ultra,
        SCANBRIDGE_DATA_DIR: join(work, `data-${i}`),
      },
      options,
    ),
    ms: [],
    ready: [],
    peak: NaN,
  }));
  try {
    // One study per round (its own Study and Series UIDs): no receiver ever replaces a file.
    const studies = [];
    for (let round = 0; round < ROUNDS; round++)
      studies.push(
        await writeCtSeries(join(work, `cbct-${round}`), { slices: SLICES, rows: 256, cols: 256, pixels: 'pattern' }),
      );
    const mb = (studies[0]?.bytes ?? 0) / 2 ** 20;
    for (const l of listeners)
      await waitFor(() => listeningPort(l.cli) !== null, 30_000, `the listener: ${l.cli.stderr()}`);
    const scpPort = await freePort();
    const scpOut = join(work, 'storescp');
    mkdirSync(scpOut);
    storescp = spawn('storescp', ['-aet', 'SCANBRIDGE', '-od', scpOut, String(scpPort)], { env: DCMTK_ENV });
    // Ready once it answers C-ECHO.
    for (
      let tries = 0;
      (await dcmtk('echoscu', ['-aec', 'SCANBRIDGE', '127.0.0.1', String(scpPort)])).code !== 0;
      tries++
    )
      if (tries > 100) throw new Error('storescp did not start');
    const scp: number[] = [];
    for (const [round, series] of studies.entries()) {
      // storescp names its files after their SOP Instance UIDs: new names every round too.
      scp.push(await timed(() => storescu(scpPort, [series.dir])));
      for (const l of listeners) {
        l.ms.push(await timed(() => storescu(listeningPort(l.cli) ?? 0, [series.dir])));
        const released = performance.now();
        // VmHWM is a high-water mark: read before any upload, it is the receiving's (and start-up's).
        if (round === 0) l.peak = peakRssMb(l.cli.child.pid ?? 0);
        // The exam of this round is ready (one `ready` line per exam after the `listening` line).
        await waitFor(
          () => l.cli.stdout().length >= 2 + round,
          300_000,
          `the exam of round ${round + 1}: ${l.cli.stderr()}`,
        );
        l.ready.push(performance.now() - released);
      }
    }
    const list = (xs: number[]): string => xs.map((x) => x.toFixed(0)).join(', ');
    const figures: BenchSection['figures'] = [
      {
        name: `storescp (DCMTK, baseline) (median of ${ROUNDS}: ${list(scp)} ms)`,
        value: median(scp) / 1000,
        unit: 's',
      },
    ];
    for (const l of listeners) {
      const ratio = median(l.ms) / median(scp);
      const how = l.options.length ? `launcher's options, ${l.options.join(' ')}` : "V8's defaults, no options";
      figures.push(
        {
          name: `scanbridge receive (${how}), storescu wall time (median of ${ROUNDS}: ${list(l.ms)} ms)`,
          value: median(l.ms) / 1000,
          unit: 's',
        },
        {
          name: `ScanBridge time / storescp time (${l.label})`,
          value: ratio,
          unit: '×',
          goal: '≤ 1.2 ×',
          met: ratio <= 1.2,
        },
        {
          // The listener's first association after its start, one of the rounds of the median above,
          // is usually its slowest: shown on its own so that it can be followed.
          name: `the first association after the listener started, against storescp's first round (${l.label})`,
          value: (l.ms[0] ?? NaN) / (scp[0] ?? NaN),
          unit: '×',
        },
        {
          name: `peak RSS of \`scanbridge receive\` after receiving the first study (${l.label}; VmHWM, includes start-up)`,
          value: l.peak,
          unit: 'MB',
          goal: '≤ 150 MB',
          met: l.peak <= 150,
        },
        {
          name: `association released → exam ready on the service (${l.label}; quiet time 1 s, scan, upload to the emulator; median of ${ROUNDS}: ${list(l.ready)} ms)`,
          value: median(l.ready) / 1000,
          unit: 's',
        },
      );
    }
    return {
      title: `DICOM listener: ${SLICES}-slice CBCT (256×256, 16-bit, ${mb.toFixed(0)} MB) from storescu, loopback`,
      figures,
      details:
        `Two \`scanbridge receive\` processes: one with its launcher's Node options (${cliNodeOptions.join(' ')}), one with none ` +
        "(V8's defaults, as the desktop app's agent runs in Electron's main process). " +
        'Every DCMTK end (storescu and storescp) runs with TCP_NODELAY=1 (Debian builds leave Nagle on, which adds ~40 ms per object whatever the receiver). ' +
        `Each of the ${ROUNDS} rounds sends a new study (new Study, Series and SOP Instance UIDs) to storescp, then to each listener in turn, ` +
        'waiting for its exam to be ready on the service before the next send: every receiver always writes new files. ' +
        'Before each timed send the page cache is flushed (`sync`), so no receiver pays for the writes of the one before.',
    };
  } finally {
    storescp?.kill();
    for (const l of listeners) l.cli.child.kill('SIGTERM');
    await Promise.all(listeners.map((l) => l.cli.exited));
    await emulator.dispose();
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${JSON.stringify(await benchReceive(), null, 2)}\n`);
}
