// Benchmark: the DICOM listener (`scanbridge receive`, the real bundled command) receiving a
// 600-slice CBCT from DCMTK's storescu, against DCMTK's own storescp receiving the same images in
// the same run (rounds interleaved, medians compared); its peak RSS while receiving; and the time
// from the association's release (storescu's exit) to the exam being ready on the emulator.
// Run alone with `npx tsx test/bench/receive.ts` (prints the section as JSON), or
// `npm run bench -- receive --update` to rewrite its section of RESULTS.md.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCtSeries } from '../fixtures/dicom/generate';
import { EmulatorProcess } from '../support/emulator';
import { DCMTK_ENV, dcmtk, listeningPort, startReceive, storescu } from '../support/receive-harness';
import { waitFor } from '../support/watch-harness';
import type { BenchSection } from './types';
import { freePort } from '../support/free-port';

const SLICES = 600;
const ROUNDS = 3;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Peak resident memory of a process so far (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function timed(f: () => Promise<{ code: number; stderr: string }>): Promise<number> {
  const t0 = performance.now();
  const r = await f();
  if (r.code !== 0) throw new Error(`storescu failed: ${r.stderr.slice(0, 300)}`);
  return performance.now() - t0;
}

export async function benchReceive(): Promise<BenchSection> {
  const work = await mkdtemp(join(tmpdir(), 'sb-bench-receive-'));
  const emulator = await EmulatorProcess.start();
  let storescp: ChildProcess | undefined;
  const cli = startReceive(['--port', '0', '--quiet', '1', '--json'], {
    SCANBRIDGE_API_URL: emulator.info.base_url,
    SCANBRIDGE_API_KEY: emulator.info.keys.ultra,
    SCANBRIDGE_DATA_DIR: join(work, 'data'),
  });
  try {
    const series = await writeCtSeries(join(work, 'cbct'), { slices: SLICES, rows: 256, cols: 256, pixels: 'pattern' });
    const mb = series.bytes / 2 ** 20;
    await waitFor(() => listeningPort(cli) !== null, 30_000, `the listener: ${cli.stderr()}`);
    const port = listeningPort(cli) ?? 0;
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
    const sb: number[] = [];
    const scp: number[] = [];
    let releaseToReady = NaN;
    let peak = NaN;
    for (let round = 0; round < ROUNDS; round++) {
      scp.push(await timed(() => storescu(scpPort, [series.dir])));
      rmSync(scpOut, { recursive: true, force: true });
      mkdirSync(scpOut);
      const skippedBefore = (cli.stderr().match(/already uploaded as exam/g) ?? []).length;
      sb.push(await timed(() => storescu(port, [series.dir])));
      const released = performance.now();
      if (round === 0) {
        peak = peakRssMb(cli.child.pid ?? 0);
        await waitFor(() => cli.stdout().length >= 2, 300_000, `the exam: ${cli.stderr()}`);
        releaseToReady = performance.now() - released;
      } else {
        // Sent again: recognised (no second exam); waited for so rounds do not overlap.
        await waitFor(
          () => (cli.stderr().match(/already uploaded as exam/g) ?? []).length > skippedBefore,
          120_000,
          `the resend: ${cli.stderr()}`,
        );
      }
    }
    const ratio = median(sb) / median(scp);
    return {
      title: `DICOM listener: ${SLICES}-slice CBCT (256×256, 16-bit, ${mb.toFixed(0)} MB) from storescu, loopback`,
      figures: [
        {
          name: `scanbridge receive, storescu wall time (median of ${ROUNDS}: ${sb.map((x) => x.toFixed(0)).join(', ')} ms)`,
          value: median(sb) / 1000,
          unit: 's',
        },
        {
          name: `storescp (DCMTK, baseline) (median of ${ROUNDS}: ${scp.map((x) => x.toFixed(0)).join(', ')} ms)`,
          value: median(scp) / 1000,
          unit: 's',
        },
        { name: 'ScanBridge time / storescp time', value: ratio, unit: '×', goal: '≤ 1.2 ×', met: ratio <= 1.2 },
        {
          name: 'peak RSS of `scanbridge receive` after receiving the study (VmHWM, includes start-up)',
          value: peak,
          unit: 'MB',
        },
        {
          name: 'association released → exam ready on the service (quiet time 1 s, scan, upload to the emulator)',
          value: releaseToReady / 1000,
          unit: 's',
        },
      ],
      details:
        'DCMTK tools run with TCP_NODELAY=1 (Debian builds leave Nagle on, which adds ~40 ms per object whatever the receiver). ' +
        'Rounds 2 and 3 to ScanBridge are resends of the uploaded study (stored again, recognised by the ledger, no upload).',
    };
  } finally {
    storescp?.kill();
    cli.child.kill('SIGTERM');
    await cli.exited;
    await emulator.dispose();
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${JSON.stringify(await benchReceive(), null, 2)}\n`);
}
