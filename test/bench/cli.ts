// Benchmark: the `scanbridge` command as a whole process, as a clinic's script or the watch
// service at every restart pays it: start-up on an empty folder, and a scan of a 1500-slice CT
// export (512×512, 16-bit) against DCMTK's `dcmdump -q +sb PixelData` over the same files in one
// process, with the command's peak memory. Medians over several runs, warm page cache.
// Run alone with `npx tsx test/bench/cli.ts` (prints the section as JSON).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeCtSeries } from '../fixtures/dicom/generate';
import type { Bench, BenchFigure, BenchSection } from './types';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'main', 'bin', 'scanbridge.mjs');
const SLICES = 1500;
const RUNS = 7;
const GNU_TIME = '/usr/bin/time';

type Run = { ms: number; rssKb: number | null; stdout: string };

/** Runs a command to its end: wall time from spawn to exit and, with GNU time, its peak RSS. */
function timed(cmd: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  const withTime = existsSync(GNU_TIME);
  const rssFile = join(tmpdir(), `sb-bench-rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const argv = withTime ? ['-f', '%M', '-o', rssFile, cmd, ...args] : args;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(withTime ? GNU_TIME : cmd, argv, {
      cwd: options.cwd ?? root,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - started;
      let rssKb: number | null = null;
      if (withTime) {
        rssKb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop());
        rmSync(rssFile, { force: true });
      }
      if (code !== 0) reject(new Error(`${cmd} ${args.slice(0, 3).join(' ')} exited with ${code}: ${stderr}`));
      else resolve({ ms, rssKb, stdout });
    });
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};
const spread = (xs: number[]): string => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)} ms`;

export const benchCli: Bench = async (): Promise<BenchSection> => {
  // The bundle the command runs (as after `npm ci`); a stale one would fall back to the sources.
  execFileSync(process.execPath, [join(root, 'main', 'esbuild.config.mjs'), '--cli'], { cwd: root });
  const dir = mkdtempSync(join(tmpdir(), 'scanbridge-bench-cli-'));
  try {
    const empty = join(dir, 'empty');
    execFileSync('mkdir', [empty]);
    const env = { ...process.env, SCANBRIDGE_FROM_SOURCES: '' };

    // Start-up: the bin on an empty folder, Node alone, and the TypeScript sources (the old way).
    const node: number[] = [];
    const bundled: number[] = [];
    const sources: number[] = [];
    await timed(process.execPath, [bin, 'scan', empty, '--json'], { env });
    for (let i = 0; i < RUNS; i++) {
      node.push((await timed(process.execPath, ['-e', '0'])).ms);
      const b = await timed(process.execPath, [bin, 'scan', empty, '--json'], { env });
      if (!b.stdout.includes('"studies":[]')) throw new Error(`unexpected output: ${b.stdout}`);
      bundled.push(b.ms);
      sources.push(
        (
          await timed(process.execPath, [bin, 'scan', empty, '--json'], {
            env: { ...env, SCANBRIDGE_FROM_SOURCES: '1' },
          })
        ).ms,
      );
    }

    // A CBCT export: the whole command against dcmdump over the same files, alternating.
    const ct = join(dir, 'ct');
    const series = await writeCtSeries(ct, {
      slices: SLICES,
      rows: 512,
      cols: 512,
      patientName: 'MUÑOZ^JUAN CARLOS',
      charset: 'latin1',
      patientId: 'B-1500',
      studyDate: '20260302',
    });
    const names = series.files.map((f) => basename(f.path));
    execFileSync('sync');
    await timed('dcmdump', ['-q', '+sb', 'PixelData', ...names], { cwd: ct });
    await timed(process.execPath, [bin, 'scan', ct, '--json'], { env });
    const ours: Run[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      theirs.push((await timed('dcmdump', ['-q', '+sb', 'PixelData', ...names], { cwd: ct })).ms);
      const r = await timed(process.execPath, [bin, 'scan', ct, '--json'], { env });
      const out = JSON.parse(r.stdout) as { studies: { files: number }[] };
      if (out.studies[0]?.files !== SLICES) throw new Error('the command did not find the generated series');
      ours.push(r);
    }
    const scanMs = median(ours.map((r) => r.ms));
    const dumpMs = median(theirs);
    const ratio = scanMs / dumpMs;
    const rss = ours.map((r) => r.rssKb).filter((k): k is number => k !== null);
    const startMs = median(bundled);
    // On a busy machine Node's own start swings by tenths of a second: the command's own cost is
    // the difference, run by run (each bin run follows a `node -e 0` run).
    const overhead = median(bundled.map((b, i) => b - (node[i] ?? 0)));
    const load = loadavg()
      .map((l) => l.toFixed(1))
      .join(', ');
    const figures: BenchFigure[] = [
      {
        name: '`scanbridge scan <empty dir> --json`, bin on the prebuilt bundle',
        value: Number((startMs / 1000).toFixed(3)),
        unit: 's',
        goal: '≤ 0.15 s',
        met: startMs <= 150,
        note: `median of ${RUNS}, ${spread(bundled)}`,
      },
      {
        name: 'the same from the TypeScript sources (tsx, the former start-up; now only when the bundle is stale)',
        value: Number((median(sources) / 1000).toFixed(3)),
        unit: 's',
        note: `median of ${RUNS}, ${spread(sources)}`,
      },
      {
        name: 'Node alone (`node -e 0`, reference)',
        value: Number((median(node) / 1000).toFixed(3)),
        unit: 's',
        note: `median of ${RUNS}`,
      },
      {
        name: "the command's own start-up: bin run minus the `node -e 0` run before it",
        value: Number((overhead / 1000).toFixed(3)),
        unit: 's',
        note: `median of ${RUNS}`,
      },
      {
        name: `\`scanbridge scan\` of ${SLICES} slices, whole process`,
        value: Number((scanMs / 1000).toFixed(3)),
        unit: 's',
        note: `median of ${RUNS}, ${spread(ours.map((r) => r.ms))}`,
      },
      {
        name: '`dcmdump -q +sb PixelData` over the same files, one process (baseline)',
        value: Number((dumpMs / 1000).toFixed(3)),
        unit: 's',
        note: `median of ${RUNS}, ${spread(theirs)}`,
      },
      {
        name: 'scanbridge scan time / dcmdump time',
        value: Number(ratio.toFixed(2)),
        unit: '×',
        goal: '≤ 3 ×',
        met: ratio <= 3,
      },
    ];
    if (rss.length > 0) {
      const peak = Math.max(...rss) / 1024;
      figures.push({
        name: `peak RSS of \`scanbridge scan\` over ${SLICES} slices (worst of ${rss.length})`,
        value: Number(peak.toFixed(1)),
        unit: 'MB',
        goal: '≤ 100 MB',
        met: peak <= 100,
        note: `median ${(median(rss) / 1024).toFixed(1)} MB`,
      });
    }
    return {
      title: `The scanbridge command, whole process (${SLICES} CT slices 512×512, ${(series.bytes / 1e6).toFixed(0)} MB, warm cache)`,
      figures,
      details:
        `Load average during the run: ${load} (1, 5, 15 min; ${RUNS} runs each, alternating). ` +
        `Wall time from spawn to exit of \`node main/bin/scanbridge.mjs\`${rss.length ? ', peak RSS from GNU time' : ''}. The command scans in its own thread: for one scan per process, starting worker threads costs more than they save. ` +
        "Through `npx scanbridge` add npx's own start (about 0.9 s); `npm link` puts the bin on the PATH without it.",
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(await benchCli(), null, 2)}\n`);
}
