// The window with a 5000-file study: the longest main-thread task while the study arrives in the
// Inbox, is sent to the queue, and its upload runs on the Uploads screen. Real parts: the emulator,
// `scanbridge serve` (browser mode) and the system Chromium driven by Playwright.
//
// Measured from a Chromium trace of the renderer's main thread: each task's wall time (`dur`, what a
// long-task observer reports) and its thread CPU time (`tdur`). On a loaded machine the wall time
// of a task includes time the thread waited for a core; the CPU time is the work the window itself
// did, so the goal is checked on it and both are written down.
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { ServeProcess } from '../support/e2e/serve-process';
import { writeCtSeries } from '../fixtures/dicom/generate';
import { EmulatorProcess } from '../support/emulator/emulator';
import type { Bench } from './types';

type TraceEvent = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { functionName?: string; url?: string } };
};
export type PhaseFigures = { maxCpuMs: number; maxWallMs: number; over50Cpu: number; worst: string };

/** The renderer main thread's tasks in a trace: the longest by CPU time, and what it spent it on. */
function analyse(buf: Buffer): PhaseFigures {
  const events = (JSON.parse(buf.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const onMain = events.filter((e) => e.ph === 'X' && mains.has(`${e.pid}:${e.tid}`));
  const tasks = onMain.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
  let worst: TraceEvent | undefined;
  for (const t of tasks) if (!worst || (t.tdur ?? 0) > (worst.tdur ?? 0)) worst = t;
  let what = '';
  if (worst) {
    const w = worst;
    const inside = onMain.filter(
      (e) =>
        e !== w &&
        e.pid === w.pid &&
        e.tid === w.tid &&
        e.ts >= w.ts &&
        e.ts + (e.dur ?? 0) <= w.ts + (w.dur ?? 0) &&
        e.name !== 'RunTask',
    );
    const byName = new Map<string, number>();
    for (const e of inside) {
      const label = e.name === 'FunctionCall' ? `FunctionCall ${e.args?.data?.functionName || '(anonymous)'}` : e.name;
      byName.set(label, Math.max(byName.get(label) ?? 0, (e.tdur ?? e.dur ?? 0) / 1000));
    }
    what = [...byName.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
      .join(', ');
  }
  return {
    maxCpuMs: Math.round((worst?.tdur ?? 0) / 1000),
    maxWallMs: Math.round(Math.max(0, ...tasks.map((t) => t.dur ?? 0)) / 1000),
    over50Cpu: tasks.filter((t) => (t.tdur ?? 0) > 50_000).length,
    worst: what,
  };
}

async function traced(browser: Browser, page: Page, step: () => Promise<void>): Promise<PhaseFigures> {
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'],
  });
  await step();
  return analyse(await browser.stopTracing());
}

/** One run of the scenario. */
export async function measureWindow(): Promise<{
  inbox: PhaseFigures;
  queueing: PhaseFigures;
  uploading: PhaseFigures;
}> {
  const emulator = await EmulatorProcess.start();
  const app = await ServeProcess.start({ apiUrl: emulator.info.base_url, keychain: 'none' });
  const watchDir = mkdtempSync(join(tmpdir(), 'sb-bench-watch-'));
  const staging = mkdtempSync(join(tmpdir(), 'sb-bench-large-'));
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    await app.rpc('keys:save', { key: emulator.info.keys.pro });
    // One PUT per file, slowed so the upload outlasts the measurement.
    await app.rpc('settings:update', { upload: { mode: 'files', bandwidth_limit: 1_000_000 } });
    await app.rpc('folders:add', {
      path: watchDir,
      exam_type: 'from_dicom',
      mode: 'review',
      settle_seconds: 1,
      polling: false,
    });
    await writeCtSeries(join(staging, 'CBCT_5000'), {
      slices: 5000,
      rows: 16,
      cols: 16,
      patientName: 'PEÑA^MARÍA JOSÉ',
      charset: 'latin1',
      patientId: 'X5000',
      birthDate: '19750505',
      studyDate: '20260302',
      studyDescription: 'CBCT completo',
      seriesDescription: 'Volumen',
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    await page.goto(app.info.url);
    await page.waitForURL(/#\/inbox$/);
    const detail = page.getByTestId('inbox-detail');

    const inbox = await traced(browser, page, async () => {
      renameSync(join(staging, 'CBCT_5000'), join(watchDir, 'CBCT_5000'));
      await detail.waitFor({ timeout: 90_000 });
      await page.waitForTimeout(2_000);
    });
    const queueing = await traced(browser, page, async () => {
      await detail.getByTestId('inbox-upload').click();
      await page.getByTestId('see-uploads').click();
      await page.locator('[data-testid="upload-job"][data-phase="uploading"]').waitFor({ timeout: 60_000 });
    });
    const uploading = await traced(browser, page, () => page.waitForTimeout(5_000));
    return { inbox, queueing, uploading };
  } finally {
    await browser.close();
    await app.dispose();
    await emulator.dispose();
    rmSync(watchDir, { recursive: true, force: true });
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * This benchmark run on the previous release (Inbox detail rendered in the same task as the pushed
 * update), on the same machine while another test run loaded it: the longest task, at the study's
 * arrival in the Inbox.
 */
const BEFORE = { cpuMs: 35, wallMs: 87 };

export const benchWindowLongTasks: Bench = async () => {
  const runs = [await measureWindow(), await measureWindow()];
  const phases = ['inbox', 'queueing', 'uploading'] as const;
  const worst = (k: (typeof phases)[number], f: 'maxCpuMs' | 'maxWallMs'): number =>
    Math.max(...runs.map((r) => r[k][f]));
  const cpu = Math.max(...phases.map((p) => worst(p, 'maxCpuMs')));
  const wall = Math.max(...phases.map((p) => worst(p, 'maxWallMs')));
  const label = {
    inbox: 'study arrives in the Inbox',
    queueing: 'Upload → Uploads screen, job starts',
    uploading: '5 s of the upload running',
  };
  return {
    title: 'Window with a 5000-file study (browser mode, system Chromium, main-thread trace)',
    figures: [
      ...phases.map((p) => ({
        name: `longest task, ${label[p]}: CPU (wall ${worst(p, 'maxWallMs')} ms; worst of 2 runs)`,
        value: worst(p, 'maxCpuMs'),
        unit: 'ms',
      })),
      {
        name: 'longest main-thread task, whole scenario, CPU time',
        value: cpu,
        unit: 'ms',
        goal: '≤ 50 ms',
        met: cpu <= 50,
        ...(Number.isNaN(BEFORE.cpuMs) ? {} : { note: `before the fix: ${BEFORE.cpuMs} ms` }),
      },
      {
        name: 'longest main-thread task, whole scenario, wall time (includes waiting for a core)',
        value: wall,
        unit: 'ms',
        ...(Number.isNaN(BEFORE.wallMs) ? {} : { note: `before the fix: ${BEFORE.wallMs} ms` }),
      },
    ],
    details: `What the longest task did: ${runs.flatMap((r) => phases.map((p) => `${p}: ${r[p].worst || '—'}`)).join(' | ')}. Tasks over 50 ms of CPU: ${runs.map((r) => phases.map((p) => r[p].over50Cpu).join('/')).join(', ')} (inbox/queueing/uploading per run).`,
  };
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await measureWindow(), null, 2));
}
