// Benchmark: the upload engine against the emulator (both real processes on this machine).
//   1. 200 MiB (400 CBCT-sized files of 512 KiB) through the engine vs a raw 8-way parallel
//      node:http PUT of the same files to the same emulator, plus got's stream PUT for reference;
//      rounds interleaved, medians compared.
//   2. Peak RSS of a process uploading 5000 files (files and zip mode), and of an idle one.
//   3. Bytes sent twice after `kill -9` of the real CLI in the middle of an upload.
//   4. API calls per exam (X-RateLimit-Remaining before and after).
//   5. Files vs zip mode on many small files, and where zip stops paying off (auto mode's basis).
// Run alone with `npx tsx test/bench/upload.ts` (prints the section as JSON).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import got from 'got';
import { createApiClient, type ApiClient } from '../../main/core/api';
import { examsPortFromClient } from '../../main/core/upload/ports/api-port';
import { UploadJob } from '../../main/core/upload/job/engine';
import { planUpload, type PlanFileInput } from '../../main/core/upload/plan/plan';
import type { UploadMode } from '../../main/core/upload/ports/ports';
import { writeCtSeries } from '../fixtures/dicom/generate';
import { EmulatorProcess } from '../support/emulator/emulator';
import { cliNodeOptions } from '../support/repo-paths';
import type { Bench, BenchFigure, BenchSection } from './types';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const MiB = 1024 * 1024;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};
const round = (n: number, d = 3): number => Math.round(n * 10 ** d) / 10 ** d;

function writeFiles(dir: string, count: number, size: number): PlanFileInput[] {
  mkdirSync(dir, { recursive: true });
  const out: PlanFileInput[] = [];
  for (let i = 0; i < count; i++) {
    const name = `IMG${String(i).padStart(5, '0')}.dcm`;
    writeFileSync(join(dir, name), randomBytes(size));
    out.push({ path: join(dir, name), name });
  }
  return out;
}

async function createFilesExam(
  client: ApiClient,
  name: string,
  files: PlanFileInput[],
  size: number,
): Promise<{ id: string; urls: string[] }> {
  const c = await client.exams.create({
    name,
    upload_mode: 'files',
    files: files.map((f) => ({ name: f.name, size })),
  });
  return { id: c.id, urls: (c.upload_urls ?? []).map((u) => u.url) };
}

/** The baseline: 8 lanes of plain node:http PUTs streaming each file, nothing else. */
async function rawPut(urls: string[], files: PlanFileInput[], size: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = next++; i < files.length; i = next++) {
        await new Promise<void>((resolve, reject) => {
          const req = request(urls[i] ?? '', { method: 'PUT', agent, headers: { 'Content-Length': size } }, (res) => {
            res.resume();
            res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`PUT ${res.statusCode}`))));
          });
          req.on('error', reject);
          createReadStream(files[i]?.path ?? '').pipe(req);
        });
      }
    }),
  );
  const ms = performance.now() - t0;
  agent.destroy();
  return ms;
}

/** The same with got's stream API (TOOLCHAIN.md measured it slower on loopback; checked here). */
async function gotPut(urls: string[], files: PlanFileInput[], size: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = next++; i < files.length; i = next++) {
        await pipeline(
          createReadStream(files[i]?.path ?? ''),
          got.stream.put(urls[i] ?? '', {
            headers: { 'content-length': String(size) },
            agent: { http: agent },
            retry: { limit: 0 },
          }),
          async (res) => {
            for await (const _ of res) void _;
          },
        );
      }
    }),
  );
  const ms = performance.now() - t0;
  agent.destroy();
  return ms;
}

async function engineRun(
  emu: EmulatorProcess,
  root: string,
  files: PlanFileInput[],
  mode: UploadMode,
  name: string,
  concurrency = 8,
): Promise<{ ms: number; transferMs: number; cpuMs: number; examId: string }> {
  const client = createApiClient({ baseUrl: emu.info.base_url, apiKey: emu.info.keys.ultra });
  const plan = await planUpload({ root, fields: { name }, files, mode });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const job = UploadJob.create(plan, {
    port: examsPortFromClient(client),
    dataDir: join(root, '..', 'data'),
    options: { concurrency },
  });
  let start = 0;
  let end = 0;
  job.on((e) => {
    if (e.type === 'status' && e.status === 'transferring') start = performance.now();
    if (e.type === 'status' && e.status === 'confirming') end = performance.now();
  });
  const result = await job.run();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  await job.whenCompacted();
  return { ms, transferMs: end - start, cpuMs: (cpu.user + cpu.system) / 1000, examId: result.exam_id };
}

/** The baseline's whole upload: POST /exams and confirm with plain fetch around the raw PUTs. */
async function rawUpload(
  emu: EmulatorProcess,
  name: string,
  files: PlanFileInput[],
  size: number,
): Promise<{ ms: number; putMs: number; id: string }> {
  const headers = { Authorization: `Bearer ${emu.info.keys.ultra}`, 'Content-Type': 'application/json' };
  const t0 = performance.now();
  const res = await fetch(`${emu.info.base_url}/exams`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name, upload_mode: 'files', files: files.map((f) => ({ name: f.name, size })) }),
  });
  const created = (await res.json()) as { id: string; upload_urls: { url: string }[] };
  const putMs = await rawPut(
    created.upload_urls.map((u) => u.url),
    files,
    size,
  );
  const confirm = await fetch(`${emu.info.base_url}/exams/${created.id}/confirm`, { method: 'POST', headers });
  if (!confirm.ok) throw new Error(`confirm ${confirm.status}`);
  await confirm.arrayBuffer();
  return { ms: performance.now() - t0, putMs, id: created.id };
}

async function throughput(emu: EmulatorProcess, work: string): Promise<{ figures: BenchFigure[]; details: string }> {
  const COUNT = 400;
  const SIZE = 512 * 1024;
  const root = join(work, 'tp');
  const files = writeFiles(root, COUNT, SIZE);
  const client = createApiClient({ baseUrl: emu.info.base_url, apiKey: emu.info.keys.ultra });
  const t = {
    rawJob: [] as number[],
    rawPut: [] as number[],
    engine: [] as number[],
    transfer: [] as number[],
    got: [] as number[],
  };
  const cpu = { raw: [] as number[], engine: [] as number[] };
  const ROUNDS = 7;
  // Warm up both paths (module loading, first connections).
  await rawUpload(emu, 'warm raw', files.slice(0, 16), SIZE);
  await engineRun(emu, root, files.slice(0, 16), 'files', 'warm engine');
  for (let r = 0; r < ROUNDS; r++) {
    // Engine and baseline back to back, in alternating order: each pair sees the same machine
    // (other processes here come and go), and pair ratios are compared rather than totals.
    const order = r % 2 === 0 ? ['raw', 'engine'] : ['engine', 'raw'];
    if (r < 5) order.push('got');
    for (const m of order) {
      await sleep(300);
      let examId = '';
      if (m === 'raw') {
        const c0 = process.cpuUsage();
        const x = await rawUpload(emu, `raw ${r}`, files, SIZE);
        const c = process.cpuUsage(c0);
        cpu.raw.push((c.user + c.system) / 1000);
        t.rawJob.push(x.ms);
        t.rawPut.push(x.putMs);
        examId = x.id;
      }
      if (m === 'got') {
        const c = await createFilesExam(client, `got ${r}`, files, SIZE);
        t.got.push(await gotPut(c.urls, files, SIZE));
        examId = c.id;
      }
      if (m === 'engine') {
        const e = await engineRun(emu, root, files, 'files', `engine ${r}`);
        cpu.engine.push(e.cpuMs);
        t.engine.push(e.ms);
        t.transfer.push(e.transferMs);
        examId = e.examId;
      }
      // Keep the emulator's storage small (it lives in memory, see benchUpload).
      await client.exams.remove(examId);
    }
  }
  const rawJob = median(t.rawJob);
  const rawPutMs = median(t.rawPut);
  const engine = median(t.engine);
  const gotMs = median(t.got);
  const mbps = (ms: number): number => round((COUNT * SIZE) / MiB / (ms / 1000), 1);
  const pairs = (a: number[], b: number[]): number[] => a.map((x, i) => x / (b[i] ?? x));
  const jobRatio = median(pairs(t.engine, t.rawJob));
  const putRatio = median(pairs(t.transfer, t.rawPut));
  const cpuRatio = median(pairs(cpu.engine, cpu.raw));
  const fmt = (xs: number[]): string => xs.map(Math.round).join(', ');
  return {
    figures: [
      {
        name: '200 MiB (400 × 512 KiB) upload, engine: create → 8 PUTs at a time → confirm',
        value: round(engine / 1000),
        unit: 's',
        note: `${mbps(engine)} MiB/s, median of ${ROUNDS}`,
      },
      {
        name: '200 MiB upload, raw baseline: fetch create → 8-way node:http PUT → fetch confirm',
        value: round(rawJob / 1000),
        unit: 's',
        note: `${mbps(rawJob)} MiB/s; its PUTs alone ${round(rawPutMs / 1000)} s (${mbps(rawPutMs)} MiB/s)`,
      },
      {
        name: '200 MiB upload: engine / raw baseline, whole upload',
        value: round(jobRatio),
        unit: '×',
        goal: '≤ 1.05 ×',
        met: jobRatio <= 1.05,
        note: `median of ${ROUNDS} back-to-back pairs`,
      },
      {
        name: '200 MiB upload: engine / raw baseline, PUT phase only',
        value: round(putRatio),
        unit: '×',
        goal: '≤ 1.05 ×',
        met: putRatio <= 1.05,
        note: 'the same PUTs, without the two API calls',
      },
      {
        name: '200 MiB upload: client CPU time, engine / raw baseline',
        value: round(cpuRatio),
        unit: '×',
        note: `medians ${Math.round(median(cpu.engine))} vs ${Math.round(median(cpu.raw))} ms`,
      },
      {
        name: '200 MiB: got stream PUT, 8-way / raw node:http PUT',
        value: round(gotMs / rawPutMs),
        unit: '×',
        note: `${mbps(gotMs)} MiB/s, median of ${t.got.length}`,
      },
    ],
    details:
      `Throughput rounds (ms, in pairs): raw whole ${fmt(t.rawJob)} (PUTs ${fmt(t.rawPut)}); engine whole ${fmt(t.engine)} (PUTs ${fmt(t.transfer)}); got PUTs ${fmt(t.got)}. ` +
      `Client CPU (ms): raw ${fmt(cpu.raw)}; engine ${fmt(cpu.engine)}. The emulator (objects in memory) MD5s and stores every byte, so on loopback it, not the client, sets the pace.`,
  };
}

function child(
  args: string[],
  env: NodeJS.ProcessEnv,
): { proc: ChildProcess; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const proc = spawn(process.execPath, args, {
    cwd: repo,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  proc.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return { proc, done: new Promise((resolve) => proc.on('close', (code) => resolve({ code, stdout, stderr }))) };
}

async function peakRss(emu: EmulatorProcess, work: string): Promise<BenchFigure[]> {
  const root = join(work, 'rss');
  writeFiles(root, 5000, 16 * 1024);
  // The app runs the core bundled (no TypeScript loader); the CLI runs it through tsx, whose loader
  // thread alone costs about 35 MB, with the smaller young generation the bin's shebang asks for
  // (node --max-semi-space-size=2, read from that line). Both are measured, and tsx with V8's
  // default for reference.
  const bundle = join(work, 'rss-child.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./upload-rss-child.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: bundle,
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'error',
  });
  const env = { BASE_URL: emu.info.base_url, API_KEY: emu.info.keys.ultra, DATA_DIR: join(work, 'rss-data') };
  type How = 'bundled' | 'tsx' | 'tsx-small-young';
  const run = async (
    how: How,
    mode: string,
    flag?: '--idle' | '--raw',
  ): Promise<{ peak_rss_mb: number; ms?: number }> => {
    const tsx = ['--import', 'tsx', 'test/bench/upload-rss-child.ts'];
    const args = how === 'bundled' ? [bundle] : how === 'tsx' ? tsx : [...cliNodeOptions, ...tsx];
    const r = await child([...args, root, mode, ...(flag ? [flag] : [])], env).done;
    if (r.code !== 0) throw new Error(`rss child failed: ${r.stderr}`);
    return JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as { peak_rss_mb: number; ms?: number };
  };
  const out: BenchFigure[] = [];
  // Peak RSS moves by several MB from run to run (V8 sizes its heap by allocation rate): medians of 3.
  const median3 = async (
    fn: () => Promise<{ peak_rss_mb: number; ms?: number }>,
  ): Promise<{ peak_rss_mb: number; ms?: number }> => {
    const runs = [await fn(), await fn(), await fn()].sort((a, b) => a.peak_rss_mb - b.peak_rss_mb);
    return runs[1] ?? { peak_rss_mb: NaN };
  };
  for (const how of ['bundled', 'tsx-small-young'] as const) {
    const idle = await run(how, 'files', '--idle');
    const raw = await median3(() => run(how, 'files', '--raw'));
    const files = await median3(() => run(how, 'files'));
    const zip = await median3(() => run(how, 'zip'));
    const where =
      how === 'bundled'
        ? "bundled core on plain Node, V8's defaults and no options (as in the app)"
        : 'through tsx with --max-semi-space-size=2 (as `npx scanbridge` runs)';
    out.push(
      {
        name: `Peak RSS uploading 5000 files (16 KiB each), files mode, ${where}`,
        value: round(files.peak_rss_mb, 1),
        unit: 'MB',
        goal: '≤ 150 MB',
        met: files.peak_rss_mb <= 150,
        note: `median of 3; ${round((files.ms ?? 0) / 1000, 1)} s; same process idle ${round(idle.peak_rss_mb, 1)} MB, plain node:http PUTs of the same files ${round(raw.peak_rss_mb, 1)} MB`,
      },
      {
        name: `Peak RSS uploading the same 5000 files, zip mode, ${where}`,
        value: round(zip.peak_rss_mb, 1),
        unit: 'MB',
        goal: '≤ 150 MB',
        met: zip.peak_rss_mb <= 150,
        note: `median of 3; ${round((zip.ms ?? 0) / 1000, 1)} s`,
      },
    );
  }
  // Most of the growth over the idle process is V8's young generation (16 MB semi-spaces by
  // default) filling with short-lived HTTP objects between collections: why the bin sets the flag.
  const wide = await median3(() => run('tsx', 'files'));
  out.push({
    name: "Peak RSS, files mode, through tsx with V8's default young generation (reference, not how the CLI runs)",
    value: round(wide.peak_rss_mb, 1),
    unit: 'MB',
    note: 'median of 3',
  });
  return out;
}

async function killResend(emu: EmulatorProcess, work: string): Promise<BenchFigure[]> {
  const series = await writeCtSeries(join(work, 'kill', 'export'), {
    slices: 80,
    rows: 256,
    cols: 256,
    patientId: 'BENCH',
    studyDescription: 'kill bench',
  });
  const dataDir = join(work, 'kill', 'data');
  const env = {
    SCANBRIDGE_API_URL: emu.info.base_url,
    SCANBRIDGE_API_KEY: emu.info.keys.ultra,
    SCANBRIDGE_DATA_DIR: dataDir,
  };
  const jobs = join(dataDir, 'jobs');
  const journal = (): { urls: string[]; done: number } => {
    const out = { urls: [] as string[], done: 0 };
    let names: string[] = [];
    try {
      names = readdirSync(jobs);
    } catch {
      return out;
    }
    for (const n of names) {
      for (const line of readFileSync(join(jobs, n), 'utf8').split('\n')) {
        try {
          const r = JSON.parse(line) as { t: string; urls?: string[]; i?: number[] };
          if (r.t === 'created') out.urls = r.urls ?? [];
          if (r.t === 'done') out.done += r.i?.length ?? 0;
        } catch {
          // A torn line.
        }
      }
    }
    return out;
  };
  // 10.5 MB at 4 MiB/s with 6 files in flight: killed at about 40 %.
  const first = child(
    ['--import', 'tsx', 'main/cli.ts', 'upload', series.dir, '--limit-rate', '4M', '--mode', 'files'],
    env,
  );
  let state = journal();
  for (let i = 0; i < 600 && state.done < 32; i++) {
    await sleep(20);
    state = journal();
  }
  first.proc.kill('SIGKILL');
  await first.done;
  // What the service holds now, file by file.
  const sizes = new Map(series.files.map((f) => [f.path.slice(series.dir.length + 1), f.size]));
  const names = [...sizes.keys()].sort();
  let storedBytes = 0;
  let stored = 0;
  for (const [i, url] of state.urls.entries()) {
    const res = await fetch(url, { method: 'HEAD' });
    if (res.ok) {
      stored++;
      storedBytes += sizes.get(names[i] ?? '') ?? 0;
    }
  }
  const journaled = journal().done;
  const again = await child(['--import', 'tsx', 'main/cli.ts', 'upload', series.dir], env).done;
  if (again.code !== 0) throw new Error(`rerun failed: ${again.stderr}`);
  const out = JSON.parse(again.stdout) as { bytes_sent: number; bytes: number; resumed: boolean };
  const resent = out.bytes_sent - (series.bytes - storedBytes);
  const slice = series.files[0]?.size ?? 1;
  return [
    {
      name: 'Bytes sent again after kill -9 mid-upload (files already stored)',
      value: resent,
      unit: 'B',
      goal: '≤ the files in flight (6 × one file)',
      met: resent <= 6 * slice && out.resumed,
      note: `${round(resent / slice, 1)} files of ${slice} B; ${stored} stored at the kill, ${journaled} journaled; rerun sent ${out.bytes_sent} of ${series.bytes} B`,
    },
  ];
}

async function apiCalls(emu: EmulatorProcess, work: string): Promise<BenchFigure[]> {
  const remaining = async (): Promise<number> => {
    const res = await fetch(`${emu.info.base_url}/me`, {
      headers: { Authorization: `Bearer ${emu.info.keys.clinica}` },
    });
    await res.arrayBuffer();
    return Number(res.headers.get('x-ratelimit-remaining'));
  };
  const out: BenchFigure[] = [];
  for (const mode of ['files', 'zip'] as const) {
    const root = join(work, `calls-${mode}`);
    const files = writeFiles(root, 50, 20_000);
    const client = createApiClient({ baseUrl: emu.info.base_url, apiKey: emu.info.keys.clinica });
    const plan = await planUpload({ root, fields: { name: `calls ${mode}` }, files, mode });
    const before = await remaining();
    await UploadJob.create(plan, { port: examsPortFromClient(client), dataDir: join(work, 'calls-data') }).run();
    const calls = before - (await remaining()) - 1;
    out.push({
      name: `API calls per exam, ${mode} mode (50 files)`,
      value: calls,
      unit: 'calls',
      goal: '= 2',
      met: calls === 2,
      note: 'X-RateLimit-Remaining before/after',
    });
  }
  return out;
}

async function filesVsZip(emu: EmulatorProcess, work: string): Promise<{ figures: BenchFigure[]; details: string }> {
  const cases = [
    { count: 2000, size: 8 * 1024 },
    { count: 1000, size: 32 * 1024 },
    { count: 600, size: 64 * 1024 },
    { count: 300, size: 256 * 1024 },
  ];
  const figures: BenchFigure[] = [];
  const rows: string[] = [];
  const client = createApiClient({ baseUrl: emu.info.base_url, apiKey: emu.info.keys.ultra });
  for (const c of cases) {
    const label = `${c.count} × ${c.size / 1024} KiB`;
    const root = join(work, `fz-${c.count}-${c.size}`);
    const files = writeFiles(root, c.count, c.size);
    const t: Record<UploadMode, number[]> = { files: [], zip: [] };
    for (const mode of ['files', 'zip', 'zip', 'files'] as const) {
      await sleep(300);
      const run = await engineRun(emu, root, files, mode, `fz ${label} ${mode}`, 6);
      t[mode].push(run.ms);
      await client.exams.remove(run.examId);
    }
    const files_ = median(t.files);
    const zip = median(t.zip);
    rows.push(
      `${label}: files ${Math.round(files_)} ms (${round(files_ / c.count, 2)} ms/file), zip ${Math.round(zip)} ms; zip/files ${round(zip / files_)}`,
    );
    if (c === cases[0]) {
      figures.push({ name: `Many small files (${label}): files mode`, value: round(files_ / 1000), unit: 's' });
      figures.push({
        name: `Many small files (${label}): zip mode`,
        value: round(zip / 1000),
        unit: 's',
        note: `zip/files = ${round(zip / files_)}`,
      });
    } else {
      figures.push({ name: `zip/files time, ${label}`, value: round(zip / files_), unit: '×' });
    }
  }
  return { figures, details: `Files vs zip (concurrency 6, loopback; median of 2 each): ${rows.join('; ')}.` };
}

export const benchUpload: Bench = async (): Promise<BenchSection> => {
  const work = await mkdtemp(join(tmpdir(), 'sb-bench-upload-'));
  // The service's storage is not the clinic's disk: keep the emulator's objects in memory when
  // possible, so its writes neither compete with the client's disk nor slow the journal's fsyncs.
  const emuData = existsSync('/dev/shm') ? await mkdtemp('/dev/shm/sb-bench-emulator-') : join(work, 'emulator');
  const emu = await EmulatorProcess.start({ dataDir: emuData });
  const details: string[] = [];
  // UPLOAD_BENCH_ONLY=rss,kill (throughput, rss, kill, calls, zip) runs only some parts, when tuning.
  const only = process.env['UPLOAD_BENCH_ONLY']?.split(',');
  const want = (part: string): boolean => !only || only.includes(part);
  try {
    const figures: BenchFigure[] = [];
    if (want('throughput')) {
      const tp = await throughput(emu, work);
      figures.push(...tp.figures);
      details.push(tp.details);
    }
    if (want('rss')) figures.push(...(await peakRss(emu, work)));
    if (want('kill')) figures.push(...(await killResend(emu, work)));
    if (want('calls')) figures.push(...(await apiCalls(emu, work)));
    if (want('zip')) {
      const fz = await filesVsZip(emu, work);
      figures.push(...fz.figures);
      details.push(fz.details);
    }
    return { title: 'Upload engine (emulator on loopback)', figures, details: details.join('\n\n') };
  } finally {
    await emu.stop();
    await rm(emuData, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  }
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(await benchUpload(), null, 2)}\n`);
}
