// Benchmark: beating a slow uplink with lossless compression. As root, the emulator and the upload
// both run inside a private network namespace whose loopback is shaped to 40 Mbit/s (tbf, MTU 1500,
// TOOLCHAIN.md); this file then re-runs itself there (`--shaped <dir>`) and reports:
//   - a CBCT-like phantom (160 real DICOM slices of 512 × 512, air around textured tissue, noise):
//     the engine in auto mode (it decides to compress by itself, from a fresh data folder) against
//     raw 8-way parallel PUTs of the same bytes (files mode create → PUTs → confirm); aim ≤ 0.55×;
//   - slices of pure noise (incompressible): the same comparison; aim ≤ 1.05×.
// Rounds are interleaved and medians compared; one more upload of the phantom first shows what a
// process that has not compressed yet adds (its deflate workers start with the study). Without
// root the shaped part is skipped (and said).
// Run alone with `npx tsx test/bench/uplink.ts`.
import { spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createApiClient } from '../../main/core/api';
import { examsPortFromClient } from '../../main/core/upload/ports/api-port';
import { chooseTransport } from '../../main/core/upload/compression/compression-choice';
import { deflateWorkerCount, holdDeflatePool } from '../../main/core/upload/compression/deflate-pool';
import { UploadJob } from '../../main/core/upload/job/engine';
import { readLinkRates } from '../../main/core/upload/compression/link-rate';
import { planUpload, type PlanFileInput } from '../../main/core/upload/plan/plan';
import { EmulatorProcess } from '../support/emulator/emulator';
import { writePhantomSeries } from '../support/data/phantom';
import type { Bench, BenchFigure, BenchSection } from './types';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const SHAPE =
  'ip link set lo mtu 1500; ip link set lo up; tc qdisc add dev lo root tbf rate 40mbit burst 32kb latency 500ms';
/** Uploads of each study: the first from nothing learnt, the rest from what the ones before learnt (their median is the figure). */
const ROUNDS = 4;
const TITLE = 'Uplink: lossless compression on a loopback shaped to 40 Mbit/s';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};
const round = (n: number, d = 3): number => Math.round(n * 10 ** d) / 10 ** d;

type Study = { root: string; files: PlanFileInput[]; bytes: number };

async function study(dir: string, slices: number, kind: 'cbct' | 'noise'): Promise<Study> {
  const s = await writePhantomSeries(dir, { slices, size: 512, kind });
  const files = s.files.map((f) => ({ path: f.path, name: relative(dir, f.path) }));
  return { root: dir, files, bytes: s.bytes };
}

/** The baseline: files-mode create, 8 lanes of plain node:http PUTs, confirm. */
async function rawUpload(emu: EmulatorProcess, s: Study, name: string): Promise<number> {
  const headers = { Authorization: `Bearer ${emu.info.keys.ultra}`, 'Content-Type': 'application/json' };
  const sizes = s.files.map((f) => statSync(f.path).size);
  const t0 = performance.now();
  const res = await fetch(`${emu.info.base_url}/exams`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name,
      upload_mode: 'files',
      files: s.files.map((f, i) => ({ name: f.name, size: sizes[i] })),
    }),
  });
  const created = (await res.json()) as { id: string; upload_urls: { url: string }[] };
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = next++; i < s.files.length; i = next++) {
        await new Promise<void>((resolve, reject) => {
          const req = request(
            created.upload_urls[i]?.url ?? '',
            { method: 'PUT', agent, headers: { 'Content-Length': sizes[i] } },
            (r) => {
              r.resume();
              r.on('end', () => (r.statusCode === 200 ? resolve() : reject(new Error(`PUT ${r.statusCode}`))));
            },
          );
          req.on('error', reject);
          createReadStream(s.files[i]?.path ?? '').pipe(req);
        });
      }
    }),
  );
  agent.destroy();
  const confirm = await fetch(`${emu.info.base_url}/exams/${created.id}/confirm`, { method: 'POST', headers });
  if (!confirm.ok) throw new Error(`confirm ${confirm.status}`);
  await confirm.arrayBuffer();
  return performance.now() - t0;
}

type EngineRun = {
  ms: number;
  wire: number;
  compress: boolean;
  mode: string;
  learnt: number | null;
  /** Share of the slices deflated with the strong codec (null: zlib level 6 alone). */
  strong: number | null;
};

/** The product's path: plan, choose by measurement (fresh data folder), run to ready. */
async function engineUpload(emu: EmulatorProcess, s: Study, name: string, dataDir: string): Promise<EngineRun> {
  const client = createApiClient({ baseUrl: emu.info.base_url, apiKey: emu.info.keys.ultra });
  const t0 = performance.now();
  const planned = await planUpload({ root: s.root, fields: { name }, files: s.files, mode: 'auto', compress: 'auto' });
  const { plan } = await chooseTransport(planned, {
    setting: 'auto',
    dataDir,
    bandwidthLimit: null,
    concurrency: 6,
    workers: deflateWorkerCount(),
  });
  const job = UploadJob.create(plan, { port: examsPortFromClient(client), dataDir });
  const result = await job.run();
  const ms = performance.now() - t0;
  await job.whenCompacted();
  return {
    ms,
    wire: result.bytes_sent,
    compress: plan.compress === true,
    mode: plan.mode,
    strong: plan.sample?.strong ?? null,
    learnt: readLinkRates(dataDir).upload_bytes_per_s,
  };
}

/** Inside the shaped namespace: the measurements, as one JSON line on stdout. */
async function shaped(work: string): Promise<void> {
  const emu = await EmulatorProcess.start();
  try {
    const out: Record<string, { raw: number[]; engine: EngineRun[]; bytes: number }> = {};
    const sets: [string, Study][] = [
      ['phantom', await study(join(work, 'phantom'), 160, 'cbct')],
      ['noise', await study(join(work, 'noise'), 80, 'noise')],
    ];
    for (const [key, s] of sets) out[key] = { raw: [], engine: [], bytes: s.bytes };
    // A process that has not compressed yet (`scanbridge upload` run once): the deflate workers
    // start with the study. Its own data folder: nothing learnt either.
    const [, phantom] = sets[0] as [string, Study];
    const cold = await engineUpload(emu, phantom, 'engine phantom cold', mkdtempSync(join(work, 'data-cold-')));
    // From here the workers stay up, as in the app and in `watch`, `serve` and `receive` while
    // compression is not turned off (the upload queue holds them).
    holdDeflatePool(true);
    // One data folder per study: the first round starts with nothing learnt (25 Mbit/s assumed,
    // the deflate rate estimated from the sample); the next ones choose from what those before
    // measured.
    const dataDirs = new Map(sets.map(([key]) => [key, mkdtempSync(join(work, `data-${key}-`))]));
    for (let r = 0; r < ROUNDS; r++) {
      for (const [key, s] of sets) {
        const o = out[key] as { raw: number[]; engine: EngineRun[] };
        o.raw.push(await rawUpload(emu, s, `raw ${key} ${r}`));
        o.engine.push(await engineUpload(emu, s, `engine ${key} ${r}`, dataDirs.get(key) ?? work));
      }
    }
    process.stdout.write(`${JSON.stringify({ ...out, cold })}\n`);
  } finally {
    await emu.dispose();
  }
}

function runShaped(work: string): Promise<string> {
  const self = fileURLToPath(import.meta.url);
  const cmd = `${SHAPE}; exec "${process.execPath}" --import tsx "${self}" --shaped "${work}"`;
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', ['-n', 'sh', '-c', cmd], { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`shaped run exited ${code}`))));
  });
}

export const benchUplink: Bench = async (): Promise<BenchSection> => {
  if (process.getuid?.() !== 0)
    return {
      title: `${TITLE} (skipped)`,
      figures: [],
      details:
        'Not run as root: shaping a private network namespace (unshare -n, tc) needs root; the shaped part was skipped.',
    };
  const work = mkdtempSync(join(tmpdir(), 'sb-bench-uplink-'));
  try {
    const lines = (await runShaped(work)).trim().split('\n');
    const { cold, ...data } = JSON.parse(lines.at(-1) ?? '{}') as Record<
      string,
      { raw: number[]; engine: EngineRun[]; bytes: number }
    > & { cold?: EngineRun };
    const figures: BenchFigure[] = [];
    const fig = (key: string, label: string, goal: number): void => {
      const d = data[key];
      if (!d) return;
      const raw = median(d.raw);
      const mb = round(d.bytes / 1e6, 1);
      const note = (e: EngineRun): string =>
        `${mb} MB; engine ${round(e.ms / 1000, 1)} s (${e.mode}${e.compress ? `, compressed, ${e.strong === null ? 'zlib level 6' : `${Math.round(e.strong * 100)} % of the slices strong`}` : ''}, ${round(e.wire / 1e6, 1)} MB on the wire), raw median ${round(raw / 1000, 1)} s; link learnt ${round(((e.learnt ?? 0) * 8) / 1e6, 1)} Mbit/s`;
      const row = (e: EngineRun, what: string, extra = ''): void => {
        const ratio = e.ms / raw;
        figures.push({
          name: `${label}, ${what}: engine (auto) / raw parallel PUTs, time to ready`,
          value: round(ratio),
          unit: '×',
          goal: `≤ ${goal}×`,
          met: ratio <= goal,
          note: `${note(e)}${extra}`,
        });
      };
      const [first, ...next] = d.engine;
      if (first) row(first, 'first upload (nothing learnt yet)');
      const byTime = [...next].sort((a, b) => a.ms - b.ms);
      const mid = byTime[Math.floor((byTime.length - 1) / 2)];
      if (mid)
        row(
          mid,
          `next uploads (rates learnt; the median of ${next.length})`,
          `; all: ${next.map((e) => `${round(e.ms / 1000, 2)} s (${e.strong === null ? '-' : `${Math.round(e.strong * 100)} %`} strong)`).join(', ')}`,
        );
      if (key === 'phantom' && cold)
        figures.push({
          name: `${label}, first upload in a process that has not compressed yet (its deflate workers start with the study, as in a first \`scanbridge upload\`; nothing learnt): engine / raw parallel PUTs, time to ready`,
          value: round(cold.ms / raw),
          unit: '×',
          note: note(cold),
        });
    };
    fig('phantom', 'CBCT-like phantom (160 × 512², air, tissue, noise)', 0.55);
    fig('noise', 'incompressible slices (80 × 512² of noise)', 1.05);
    return {
      title: TITLE,
      figures,
      details: `Emulator and upload inside \`unshare -n\` with loopback MTU 1500 and \`tbf rate 40mbit burst 32kb latency 500ms\`; the first engine run of each study starts from an empty data folder (no link rate learnt: 25 Mbit/s assumed for the estimates, 50 Mbit/s for the strong share; deflate rates from the sample), the next ones choose from the link and deflate rates those before measured (their median is the figure). Before them, one upload of the phantom in the fresh bench process, from its own empty data folder (the row without a goal); from then on the deflate workers stay up, as the upload queue keeps them in the app and in \`watch\`, \`serve\` and \`receive\` while compression is not turned off. Load average at the end: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(
          '/',
        )}. Compressing runs on worker threads while the archive is sent (the exam declared with the archive's estimated size, the archive padded up to it); a share of the slices is deflated with libdeflate level 10, the rest with zlib level 6, the share chosen so that deflating outpaces the link.`,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const i = process.argv.indexOf('--shaped');
  if (i >= 0) await shaped(process.argv[i + 1] ?? tmpdir());
  else process.stdout.write(`${JSON.stringify(await benchUplink())}\n`);
}
