// The `scanbridge` command on Windows: Node for Windows under Wine runs the bundle against the
// emulator and DCMTK on Linux, with folders on drive C: as a clinic's would be. Run by
// test/windows/run.sh (main/docs/developing.md, "Windows"), which prepares Wine, node.exe and the bundle.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createApiClient } from '@main/core/api';
import { writeCtSeries } from '@fixtures/dicom/generate';
import { EmulatorProcess } from '@support/emulator/emulator';
import { freePort } from '@support/network/free-port';
import { storescu } from '@support/harness/receive-harness';
import {
  appDataScanBridge,
  cDrive,
  killLeftovers,
  runWindowsNode,
  startWindowsNode,
  type WinProcess,
  winPath,
} from './wine';

let emu: EmulatorProcess;
let client: ApiClient;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  emu = await EmulatorProcess.start();
  client = createApiClient({ baseUrl: emu.info.base_url, apiKey: emu.info.keys.ultra });
  env = { SCANBRIDGE_API_URL: emu.info.base_url, SCANBRIDGE_API_KEY: emu.info.keys.ultra };
  for (const d of ['Exportaciones escáner', 'Vigilada', 'Preparación'])
    rmSync(cDrive(d), { recursive: true, force: true });
});

afterAll(async () => {
  await killLeftovers();
  await emu?.dispose();
});

/** A small CT study with accented file and folder names, as a Spanish-speaking clinic's exports have. */
async function exportOf(dir: string, patientId: string, slices = 30): Promise<{ files: number; bytes: number }> {
  const s = await writeCtSeries(join(dir, 'Serie 1 – Volumen'), {
    slices,
    rows: 128,
    cols: 128,
    patientName: 'NÚÑEZ^ANA MARÍA',
    patientId,
    studyDate: '20260302',
    charset: 'latin1',
    fileName: (i) => `Corte ${String(i + 1).padStart(3, '0')} señal.dcm`,
  });
  return { files: s.files.length, bytes: s.bytes };
}

async function examsOf(patientId: string): Promise<{ id: string; status: string | null | undefined }[]> {
  const list = await client.exams.list({ limit: 100 });
  return list.exams.filter((e) => e.patient_id === patientId).map((e) => ({ id: e.id, status: e.status }));
}

/** The created exam and stored files of the unfinished upload of the folder named `folder`. */
function journalState(folder: string): { examId: string | null; done: number } {
  const jobs = join(appDataScanBridge(), 'jobs');
  const out = { examId: null as string | null, done: 0 };
  if (!existsSync(jobs)) return out;
  for (const name of readdirSync(jobs).filter((n) => n.endsWith('.jsonl'))) {
    let examId: string | null = null;
    let done = 0;
    const lines = readFileSync(join(jobs, name), 'utf8').split('\n');
    try {
      const root = (JSON.parse(lines[0] ?? '') as { root?: string }).root ?? '';
      if (!root.toLowerCase().endsWith(`\\${folder.toLowerCase()}`)) continue;
    } catch {
      continue; // being written
    }
    for (const line of lines) {
      try {
        const r = JSON.parse(line) as { t: string; exam_id?: string; i?: number[] };
        if (r.t === 'created') examId = r.exam_id ?? null;
        if (r.t === 'done') done += r.i?.length ?? 0;
        if (r.t === 'summary') examId = null;
      } catch {
        // a torn line
      }
    }
    if (examId !== null) return { examId, done };
  }
  return out;
}

/** Lock keys whose newest generation is still held (no `.free`): a stale lock after a clean stop. */
function heldLocks(): string[] {
  const dir = join(appDataScanBridge(), 'locks');
  if (!existsSync(dir)) return [];
  const top = new Map<string, number>();
  const names = readdirSync(dir);
  for (const n of names) {
    const m = /^([0-9a-f]+)\.(\d+)$/.exec(n);
    if (m) top.set(m[1] as string, Math.max(top.get(m[1] as string) ?? 0, Number(m[2])));
  }
  return [...top].filter(([h, gen]) => !names.includes(`${h}.${gen}.free`)).map(([h, gen]) => `${h}.${gen}`);
}

const json = (p: WinProcess): Record<string, unknown>[] =>
  p
    .stdout()
    .split(/\r?\n/)
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('scanbridge on Windows (Node for Windows under Wine)', () => {
  it('scans "Exportaciones escáner" with accented folder, file and patient names', async () => {
    const dir = cDrive('Exportaciones escáner', 'Escaneo Núñez');
    const ex = await exportOf(dir, 'WIN-SCAN', 4);
    writeFileSync(join(dir, 'Léame – informe.txt'), 'Exportación del escáner\n');
    const r = await runWindowsNode(['scan', 'C:\\Exportaciones escáner\\Escaneo Núñez', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      studies: { files: number; patient_name: string; patient_name_raw: string }[];
      skipped: { path: string; reason: string }[];
    };
    expect(out.studies).toHaveLength(1);
    expect(out.studies[0]).toMatchObject({
      files: ex.files,
      patient_name: 'ANA MARÍA NÚÑEZ',
      patient_name_raw: 'NÚÑEZ^ANA MARÍA',
    });
    expect(out.skipped).toEqual([
      expect.objectContaining({
        path: 'C:\\Exportaciones escáner\\Escaneo Núñez\\Léame – informe.txt',
        reason: 'not_dicom',
      }),
    ]);
  });

  it('upload, kill -9, then the same folder in other letter case: the same exam, resumed; a rerun in upper case makes none', async () => {
    const patientId = 'WIN-CASE';
    const ex = await exportOf(cDrive('Exportaciones escáner', 'Ana Núñez'), patientId);
    const owner = startWindowsNode(
      [
        'upload',
        'C:\\Exportaciones escáner\\Ana Núñez',
        '--limit-rate',
        '300k',
        '--concurrency',
        '2',
        '--compress',
        'never',
      ],
      { env, name: 'upload-killed' },
    );
    await owner.waitFor(() => journalState('Ana Núñez').done >= 4, 60_000, 'the first files to be stored');
    const examId = journalState('Ana Núñez').examId;
    expect(examId).not.toBeNull();
    owner.kill9();
    await owner.exited;

    const resumed = await runWindowsNode(['upload', 'c:\\exportaciones ESCÁNER\\ana núñez'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('Resuming');
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      exam_id: examId,
      status: 'ready',
      resumed: true,
      files: ex.files,
    });

    const again = await runWindowsNode(['upload', 'C:\\EXPORTACIONES ESCÁNER\\ANA NÚÑEZ\\'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`already uploaded as exam ${examId}`);
    expect(await examsOf(patientId)).toEqual([{ id: examId, status: 'ready' }]);
    expect(heldLocks()).toEqual([]);
  }, 120_000);

  it('a lock left by a killed upload whose pid now names another live process is taken over at once', async () => {
    const patientId = 'WIN-REUSED-PID';
    await exportOf(cDrive('Exportaciones escáner', 'Luis Peña'), patientId);
    const folder = 'C:\\Exportaciones escáner\\Luis Peña';
    const owner = startWindowsNode(['upload', folder, '--limit-rate', '300k', '--compress', 'never'], {
      env,
      name: 'upload-reused',
    });
    await owner.waitFor(() => journalState('Luis Peña').done >= 2, 60_000, 'the first files to be stored');
    const examId = journalState('Luis Peña').examId;
    owner.kill9();
    await owner.exited;
    // Windows soon gives a dead process's pid to another: here, a live Windows process's pid is
    // written into the dead holder's lock files.
    const sleeper = startWindowsNode(
      ['process.stdout.write(String(process.pid) + "\\n"); setInterval(() => {}, 1000)'],
      {
        script: '-e',
        name: 'live-pid',
      },
    );
    try {
      await sleeper.waitFor((p) => /^\d+\n/.test(p.stdout()), 30_000, 'the live process to give its pid');
      const livePid = Number(sleeper.stdout().trim());
      const dir = join(appDataScanBridge(), 'locks');
      let rewritten = 0;
      // The locks the killed upload left (every other one here was released).
      for (const n of heldLocks()) {
        const record = JSON.parse(readFileSync(join(dir, n), 'utf8')) as { pid: number };
        writeFileSync(join(dir, n), JSON.stringify({ ...record, pid: livePid }));
        rewritten++;
      }
      expect(rewritten).toBeGreaterThan(0);
      const resumed = await runWindowsNode(['upload', folder], { env });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).not.toContain('another upload of this study is running');
      expect(JSON.parse(resumed.stdout)).toMatchObject({ exam_id: examId, status: 'ready', resumed: true });
    } finally {
      sleeper.kill9();
      await sleeper.exited;
    }
    expect(await examsOf(patientId)).toEqual([{ id: examId, status: 'ready' }]);
  }, 120_000);

  it('Ctrl+C during an upload: "interrupted", exit 130, no lock left; the next run resumes the same exam', async () => {
    const patientId = 'WIN-CTRLC-UPLOAD';
    await exportOf(cDrive('Exportaciones escáner', 'Sofía Ibáñez'), patientId);
    const folder = 'C:\\Exportaciones escáner\\Sofía Ibáñez';
    const up = startWindowsNode(['upload', folder, '--limit-rate', '300k', '--compress', 'never'], {
      env,
      name: 'upload-ctrlc',
    });
    await up.waitFor(() => journalState('Sofía Ibáñez').done >= 2, 60_000, 'the first files to be stored');
    const examId = journalState('Sofía Ibáñez').examId;
    up.ctrlC();
    expect(await up.exited).toBe(130);
    expect(up.stderr()).toContain(
      `scanbridge upload: interrupted. Run the same command again to resume exam ${examId}.`,
    );
    expect(heldLocks()).toEqual([]);
    const resumed = await runWindowsNode(['upload', folder], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ exam_id: examId, status: 'ready', resumed: true });
    expect(await examsOf(patientId)).toEqual([{ id: examId, status: 'ready' }]);
  }, 120_000);

  it('watch: a slice held open without sharing waits, named; released unchanged it is uploaded within settle + recheck; Ctrl+C stops cleanly', async () => {
    const patientId = 'WIN-HELD';
    mkdirSync(cDrive('Vigilada'));
    const watch = startWindowsNode(['watch', 'C:\\Vigilada', '--settle', '1'], { env, name: 'watch-held' });
    await watch.waitFor((p) => p.stderr().includes('Press Ctrl+C to stop.'), 60_000, 'the watcher to start');
    // The export is made in a staging folder, one slice held open by another Windows process
    // (as the scanner's software or an antivirus would), then moved into the watched folder.
    const staging = cDrive('Preparación', 'CBCT Núñez');
    const ex = await exportOf(staging, patientId, 6);
    const heldName = 'Serie 1 – Volumen/Corte 003 señal.dcm';
    const releaseFlag = cDrive('Preparación', 'release');
    const holder = startWindowsNode(
      [`C:\\Preparación\\CBCT Núñez\\${heldName.replace('/', '\\')}`, winPath(releaseFlag)],
      { script: winPath(join(import.meta.dirname, 'hold-file.mjs')), name: 'hold-file' },
    );
    try {
      await holder.waitFor((p) => p.stdout().startsWith('held'), 30_000, 'the slice to be held');
      renameSync(staging, cDrive('Vigilada', 'CBCT Núñez'));
      await watch.waitFor((p) => p.stderr().includes('not complete yet'), 60_000, 'the export to wait');
      expect(watch.stderr()).toContain(
        `Vigilada/CBCT Núñez: not complete yet: 1 file(s) not readable (still open?): ${heldName}.`,
      );
      expect(json(watch)).toEqual([]);
      writeFileSync(releaseFlag, '');
      await holder.waitFor((p) => p.stdout().includes('released'), 30_000, 'the slice to be released');
    } finally {
      writeFileSync(releaseFlag, '');
      await holder.exited;
    }
    const released = Date.now();
    // settle 1 s; recheck max(30 s, 3 × settle).
    await watch.waitFor((p) => json(p).length === 1, 45_000, 'the upload after the release');
    expect(Date.now() - released).toBeLessThan(31_000 + 8_000);
    expect(json(watch)[0]).toMatchObject({ status: 'ready', files: ex.files });
    expect(await examsOf(patientId)).toEqual([{ id: json(watch)[0]?.['exam_id'], status: 'ready' }]);

    watch.ctrlC();
    expect(await watch.exited).toBe(0);
    expect(watch.stderr()).toMatch(/Stopping…\r?\nStopped\.\r?\n$/);
    expect(heldLocks()).toEqual([]);
  }, 180_000);

  it('receive: storescu on Linux sends a study, it becomes an exam; Ctrl+C stops cleanly', async () => {
    const patientId = 'WIN-RECEIVE';
    const dir = cDrive('Preparación', 'Envío');
    const ex = await exportOf(dir, patientId, 5);
    const port = await freePort();
    const rx = startWindowsNode(['receive', '--port', String(port), '--quiet', '1', '--json'], {
      env,
      name: 'receive',
    });
    await rx.waitFor((p) => p.stderr().includes('Press Ctrl+C to stop.'), 60_000, 'the listener to start');
    expect(json(rx)[0]).toEqual({ listening: { port, aet: 'SCANBRIDGE' } });
    const sent = await storescu(port, [join(dir, 'Serie 1 – Volumen')]);
    expect(sent.code, sent.stderr).toBe(0);
    await rx.waitFor((p) => json(p).some((l) => l['event'] === 'ready'), 60_000, 'the received study to be uploaded');
    const ready = json(rx).find((l) => l['event'] === 'ready');
    expect(ready).toMatchObject({ files: ex.files });
    expect(await examsOf(patientId)).toEqual([{ id: ready?.['exam_id'], status: 'ready' }]);
    rx.ctrlC();
    expect(await rx.exited).toBe(0);
    expect(rx.stderr()).toMatch(/Stopping…\r?\nStopped\.\r?\n$/);
    expect(heldLocks()).toEqual([]);
  }, 120_000);

  it('serve: Ctrl+C stops the browser-mode server cleanly (exit 0)', async () => {
    const serve = startWindowsNode(['serve', '--port', '0'], { env, name: 'serve' });
    await serve.waitFor((p) => json(p).some((l) => typeof l['url'] === 'string'), 60_000, 'the server to listen');
    const url = json(serve).find((l) => typeof l['url'] === 'string')?.['url'] as string;
    expect((await fetch(url)).status).toBe(200);
    serve.ctrlC();
    expect(await serve.exited).toBe(0);
    expect(heldLocks()).toEqual([]);
  }, 90_000);

  it('whoami without a key: the Windows advice (Credential Manager), never libsecret', async () => {
    const r = await runWindowsNode(['whoami'], {
      env: { SCANBRIDGE_API_URL: emu.info.base_url, SCANBRIDGE_API_KEY: '' },
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Windows Credential Manager');
    expect(r.stderr).toContain('SCANBRIDGE_API_KEY');
    expect(r.stderr).not.toMatch(/libsecret|apt-get/);
  });
});
