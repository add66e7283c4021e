// `scanbridge upload` as clinics run it, with real processes on DCMTK-made studies against a real
// emulator: one exam per study when two uploads start together, a killed owner's lock taken over,
// no exam from a study with a slice cut short or unreadable, nothing readable by other users after
// kill -9, and no control characters from a PatientName reaching the terminal or the service.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createApiClient } from '@main/core/api';
import { type CbctExport, writeCbctExport, writeDicom } from '../../fixtures/dicom/generate';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { cliBin, repoRoot } from '@support/repo-paths';
import { journalState } from '@support/data/journal-plans';

const bin = cliBin;
const repo = repoRoot;
const exec = promisify(execFile);

type Run = { code: number | null; stdout: string; stderr: string };

let emu: EmulatorProcess;
let tmp: string;
let client: ApiClient;

function env(dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    SCANBRIDGE_API_URL: emu.info.base_url,
    SCANBRIDGE_API_KEY: emu.info.keys.ultra,
    SCANBRIDGE_DATA_DIR: dataDir,
    SCANBRIDGE_CONFIG_DIR: join(dataDir, '..', `${relative(tmp, dataDir).replaceAll(sep, '-')}-config`),
    ...extra,
  };
}

/** The CLI as a user runs it; `asUser` drops root to that user first (tests run as root here and in CI). */
function start(args: string[], e: NodeJS.ProcessEnv, asUser?: 'nobody'): { child: ChildProcess; done: Promise<Run> } {
  const argv = [process.execPath, bin, ...args];
  const [cmd, ...rest] =
    asUser && process.getuid?.() === 0
      ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', ...argv]
      : argv;
  const child = spawn(cmd as string, rest, { cwd: repo, env: e, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

const run = (args: string[], e: NodeJS.ProcessEnv, asUser?: 'nobody'): Promise<Run> => start(args, e, asUser).done;

async function examsOf(patientId: string): Promise<
  {
    id: string;
    status: string | null | undefined;
    file_count: number | null;
    bytes: number | null | undefined;
    patient_name: string | null;
  }[]
> {
  const list = await client.exams.list({ limit: 100 });
  return list.exams
    .filter((e) => e.patient_id === patientId)
    .map((e) => ({
      id: e.id,
      status: e.status,
      file_count: e.file_count ?? null,
      bytes: e.storage?.bytes,
      patient_name: e.patient_name ?? null,
    }));
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 800; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Every entry under `root` (links not followed) whose mode lets group or others in. */
function readableByOthers(root: string): string[] {
  const out: string[] = [];
  const visit = (p: string): void => {
    const s = lstatSync(p);
    if (s.isSymbolicLink()) return;
    if ((s.mode & 0o077) !== 0) out.push(`${relative(root, p) || '.'} ${(s.mode & 0o777).toString(8)}`);
    if (s.isDirectory()) for (const n of readdirSync(p)) visit(join(p, n));
  };
  if (existsSync(root)) visit(root);
  return out;
}

function sliceName(ex: CbctExport, series: number, index: number): { path: string; name: string } {
  const f = ex.series[series]?.files[index];
  if (!f) throw new Error('no such slice');
  return { path: f.path, name: relative(ex.root, f.path).split(sep).join('/') };
}

beforeAll(async () => {
  emu = await EmulatorProcess.start();
  client = createApiClient({ baseUrl: emu.info.base_url, apiKey: emu.info.keys.ultra });
  tmp = mkdtempSync(join(tmpdir(), 'sb-cli-safety-'));
});

afterAll(async () => {
  await emu.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

describe('two uploads of one study at once', () => {
  it('10 pairs started together: one ready exam per study with every byte; the other run names the owner', async () => {
    let busy = 0;
    for (let pair = 0; pair < 10; pair++) {
      const patientId = `PAIR-${pair}`;
      const ex = await writeCbctExport(join(tmp, `pair-${pair}`), {
        volumeSlices: 8,
        scoutSlices: 2,
        rows: 128,
        cols: 128,
        patientId,
        dicomdir: false,
      });
      const dataDir = join(tmp, `data-pair-${pair}`);
      // Slowed down so the two runs overlap for a while.
      const args = ['upload', ex.root, '--limit-rate', '200k', '--concurrency', '2', '--compress', 'never'];
      const a = start(args, env(dataDir));
      const b = start(args, env(dataDir));
      const runs = await Promise.all([a.done, b.done]);
      const pids = [a.child.pid, b.child.pid];
      const exams = await examsOf(patientId);
      expect(exams, `pair ${pair}: ${runs.map((r) => r.stderr).join('\n---\n')}`).toHaveLength(1);
      const exam = exams[0];
      expect(exam).toMatchObject({ status: 'ready', file_count: ex.files, bytes: ex.bytes });
      const winners = runs.filter((r) => r.code === 0 && r.stdout !== '');
      expect(winners.length).toBeGreaterThanOrEqual(1);
      for (const w of winners) expect(JSON.parse(w.stdout)).toMatchObject({ exam_id: exam?.id, status: 'ready' });
      const loserIndex = runs.findIndex((r) => r.code === 75);
      if (loserIndex >= 0) {
        busy++;
        const loser = runs[loserIndex] as Run;
        expect(loser.stdout).toBe('');
        expect(loser.stderr).toContain(`another upload of this study is running (pid ${pids[1 - loserIndex]})`);
      } else {
        // The second one started after the first had finished: it reports the same exam.
        expect(runs.some((r) => r.stderr.includes('already uploaded'))).toBe(true);
      }
    }
    // They did run at the same time (each run takes seconds; both start within milliseconds, though
    // a loaded machine may start one late enough to find the study already uploaded).
    expect(busy).toBeGreaterThanOrEqual(5);
  }, 240_000);

  it('a killed owner leaves its lock behind; the next run takes it over and resumes the same exam', async () => {
    const patientId = 'KILLED-OWNER';
    const ex = await writeCbctExport(join(tmp, 'killed'), {
      volumeSlices: 30,
      scoutSlices: 2,
      rows: 128,
      cols: 128,
      patientId,
      dicomdir: false,
    });
    const dataDir = join(tmp, 'data-killed');
    // An older version left these readable: the run tightens them.
    mkdirSync(dataDir, { recursive: true });
    chmodSync(dataDir, 0o755);
    const configDir = env(dataDir)['SCANBRIDGE_CONFIG_DIR'] as string;
    mkdirSync(configDir, { recursive: true });
    chmodSync(configDir, 0o755);
    writeFileSync(join(configDir, 'settings.json'), '{"schema_version":1}');
    chmodSync(join(configDir, 'settings.json'), 0o644);

    const owner = start(
      ['upload', ex.root, '--limit-rate', '300k', '--concurrency', '2', '--compress', 'never'],
      env(dataDir),
    );
    await waitFor(() => journalState(dataDir).done >= 4, 'the first files to be stored');
    const examId = journalState(dataDir).examId;
    expect(examId).not.toBeNull();

    // While it lives, a second run stops at once and touches nothing.
    const second = await run(['upload', ex.root], env(dataDir));
    expect(second.code).toBe(75);
    expect(second.stderr).toContain(`another upload of this study is running (pid ${owner.child.pid})`);

    owner.child.kill('SIGKILL');
    const killed = await owner.done;
    expect(killed.code).toBeNull();
    // The lock files of the dead owner are still there: this is a take-over, not a fresh lock.
    const left = readdirSync(join(dataDir, 'locks')).filter((n) => /\.\d+$/.test(n));
    expect(left.length).toBeGreaterThanOrEqual(2);
    expect(left.some((n) => JSON.parse(readFileSync(join(dataDir, 'locks', n), 'utf8')).pid === owner.child.pid)).toBe(
      true,
    );

    // After kill -9 (journal with the patient's data, locks), nothing is readable by other users:
    // what an older version left open was tightened when the owner started.
    expect(readableByOthers(dataDir)).toEqual([]);
    expect(readableByOthers(configDir)).toEqual([]);

    const resumed = await run(['upload', ex.root], env(dataDir));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('Resuming');
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      exam_id: examId,
      status: 'ready',
      resumed: true,
      files: ex.files,
      bytes: ex.bytes,
    });
    expect(await examsOf(patientId)).toEqual([
      expect.objectContaining({ id: examId, status: 'ready', file_count: ex.files, bytes: ex.bytes }),
    ]);
    expect(readableByOthers(dataDir)).toEqual([]);
    expect(readableByOthers(configDir)).toEqual([]);
  }, 120_000);
});

describe('after kill -9 mid-upload', () => {
  it('nothing in the data or config folder is readable by other users', async () => {
    const ex = await writeCbctExport(join(tmp, 'private'), {
      volumeSlices: 30,
      scoutSlices: 2,
      rows: 128,
      cols: 128,
      patientId: 'PRIVATE',
      dicomdir: false,
    });
    const dataDir = join(tmp, 'data-private', 'nested', 'scanbridge');
    const e = env(dataDir);
    const owner = start(['upload', ex.root, '--limit-rate', '300k', '--concurrency', '2', '--compress', 'never'], e);
    await waitFor(() => journalState(dataDir).done >= 2, 'files to be stored');
    owner.child.kill('SIGKILL');
    await owner.done;
    const journals = readdirSync(join(dataDir, 'jobs'));
    expect(journals.length).toBeGreaterThan(0);
    // The unfinished journal holds the patient's ID: it must be there, and private.
    expect(journals.some((n) => readFileSync(join(dataDir, 'jobs', n), 'utf8').includes('PRIVATE'))).toBe(true);
    expect(readableByOthers(dataDir)).toEqual([]);
    expect(readableByOthers(e['SCANBRIDGE_CONFIG_DIR'] as string)).toEqual([]);
    // Every level ScanBridge made on the way is private too.
    expect(statSync(join(tmp, 'data-private', 'nested')).mode & 0o777).toBe(0o700);
  }, 120_000);
});

describe('a study that cannot be read whole', () => {
  it('a slice cut short: no exam, the file named, exit 1; with --allow-incomplete the rest goes and the note says what was left out', async () => {
    const patientId = 'CUT-SHORT';
    const ex = await writeCbctExport(join(tmp, 'cut'), { volumeSlices: 6, scoutSlices: 1, patientId, dicomdir: false });
    const slice = sliceName(ex, 0, 2);
    truncateSync(slice.path, Math.floor(statSync(slice.path).size / 2));
    const dataDir = join(tmp, 'data-cut');
    const r = await run(['upload', ex.root], env(dataDir));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('nothing was uploaded');
    expect(r.stderr).toContain(`${slice.name}: cut short`);
    expect(r.stderr).toContain('--allow-incomplete');
    expect(await examsOf(patientId)).toEqual([]);

    const anyway = await run(['upload', ex.root, '--allow-incomplete'], env(dataDir));
    expect(anyway.code, anyway.stderr).toBe(0);
    const out = JSON.parse(anyway.stdout) as {
      exam_id: string;
      files: number;
      left_out: { name: string; reason: string }[];
    };
    expect(out.files).toBe(ex.files - 1);
    expect(out.left_out).toEqual([{ name: slice.name, reason: 'cut_short' }]);
    expect(anyway.stderr).toMatch(new RegExp(`Note: exam ${out.exam_id} was uploaded without 1 file\\(s\\)`));
    expect(anyway.stderr).toContain(`${slice.name}: cut short`);
    expect(await examsOf(patientId)).toEqual([
      expect.objectContaining({ id: out.exam_id, status: 'ready', file_count: ex.files - 1 }),
    ]);
  }, 60_000);

  it('an image written without Pixel Data: no exam, the file named, exit 1, like a slice cut short', async () => {
    const patientId = 'NO-PIXELS';
    const ex = await writeCbctExport(join(tmp, 'no-pixels'), {
      volumeSlices: 4,
      scoutSlices: 1,
      patientId,
      dicomdir: false,
    });
    const slice = sliceName(ex, 0, 1);
    const series = ex.series[0];
    if (!series) throw new Error('no series');
    // The same slice (same UIDs) written again by dump2dcm without its Pixel Data element.
    await writeDicom(slice.path, {
      studyUid: ex.studyUid,
      seriesUid: series.seriesUid,
      sopInstanceUid: series.files[1]?.sopInstanceUid,
      instanceNumber: 2,
      patientId,
      pixels: 'none',
    });
    const r = await run(['upload', ex.root], env(join(tmp, 'data-no-pixels')));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('nothing was uploaded');
    expect(r.stderr).toContain(`${slice.name}: cut short`);
    expect(await examsOf(patientId)).toEqual([]);
  }, 60_000);

  it('a slice the user cannot read (run as an unprivileged user): no exam, named as unreadable, never "not DICOM"', async () => {
    const patientId = 'NO-PERMISSION';
    // A world-readable corner of the temp folder, as a clinic's export share would be.
    const base = join(tmp, 'perm');
    mkdirSync(base, { recursive: true });
    chmodSync(tmp, 0o755);
    chmodSync(base, 0o755);
    const ex = await writeCbctExport(join(base, 'ex'), { volumeSlices: 6, scoutSlices: 1, patientId, dicomdir: false });
    await exec('chmod', ['-R', 'a+rX', ex.root]);
    const slice = sliceName(ex, 0, 3);
    chmodSync(slice.path, 0o000);
    const dataDir = join(base, 'data');
    mkdirSync(dataDir);
    const cfg = env(dataDir)['SCANBRIDGE_CONFIG_DIR'] as string;
    mkdirSync(cfg);
    if (process.getuid?.() === 0) {
      chownSync(dataDir, 65534, 65534);
      chownSync(cfg, 65534, 65534);
    }
    const r = await run(['upload', ex.root], env(dataDir, { HOME: dataDir }), 'nobody');
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`${slice.name}: cannot be read: permission denied`);
    expect(r.stderr).not.toMatch(/not DICOM/);
    expect(await examsOf(patientId)).toEqual([]);

    const anyway = await run(['upload', ex.root, '--allow-incomplete'], env(dataDir, { HOME: dataDir }), 'nobody');
    expect(anyway.code, anyway.stderr).toBe(0);
    const out = JSON.parse(anyway.stdout) as {
      exam_id: string;
      files: number;
      left_out: { name: string; reason: string }[];
    };
    expect(out.left_out).toEqual([{ name: slice.name, reason: 'permission_denied' }]);
    expect(out.files).toBe(ex.files - 1);
    // The junk every export carries is still only "skipped", separately from the unreadable slice.
    expect(anyway.stderr).toContain('Skipping 3 file(s) that are not DICOM or mesh.');
    expect(await examsOf(patientId)).toEqual([
      expect.objectContaining({ id: out.exam_id, status: 'ready', file_count: ex.files - 1 }),
    ]);
  }, 60_000);
});

describe('text from DICOM headers', () => {
  it('a PatientName with control characters: neither scan nor the exam carries any', async () => {
    const patientId = 'CONTROL-CHARS';
    const ex = await writeCbctExport(join(tmp, 'ctl'), {
      volumeSlices: 3,
      scoutSlices: 1,
      patientId,
      patientName: 'MU\u00d1OZ\x1b]0;owned\x07^JUAN\x1b[2J\u0085CARLOS',
      dicomdir: false,
    });
    // Every control character but the line feed that ends output lines.
    // eslint-disable-next-line no-control-regex
    const controls = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
    const text = await run(['scan', ex.root], env(join(tmp, 'data-ctl')));
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('JUAN[2J CARLOS MUÑOZ]0;owned');
    expect(text.stdout).not.toMatch(controls);
    const json = await run(['scan', ex.root, '--json'], env(join(tmp, 'data-ctl')));
    expect(json.stdout.trimEnd()).not.toMatch(controls);
    const study = (JSON.parse(json.stdout) as { studies: { patient_name: string; patient_name_raw: string }[] })
      .studies[0];
    expect(study?.patient_name_raw).toBe('MUÑOZ]0;owned^JUAN[2J CARLOS');

    const up = await run(['upload', ex.root], env(join(tmp, 'data-ctl')));
    expect(up.code, up.stderr).toBe(0);
    expect(up.stderr).not.toMatch(controls);
    const exams = await examsOf(patientId);
    expect(exams).toHaveLength(1);
    expect(exams[0]?.patient_name).toBe('JUAN[2J CARLOS MUÑOZ]0;owned');
  }, 60_000);

  it('a 10 KB PatientName is cut to the service limit with a warning, or corrected with --patient-name / --patient-id', async () => {
    const patientId = 'LONG-NAME';
    const ex = await writeCbctExport(join(tmp, 'long'), {
      volumeSlices: 2,
      scoutSlices: 1,
      patientId,
      dicomdir: false,
    });
    const files = ex.series.flatMap((s) => s.files.map((f) => f.path));
    await exec('dcmodify', ['-nb', '-m', `(0010,0010)=${'PEREZ'.repeat(2048)}^ANA`, ...files], { maxBuffer: 1 << 20 });
    const scan = await run(['scan', ex.root, '--json'], env(join(tmp, 'data-long')));
    expect(
      (JSON.parse(scan.stdout) as { studies: { patient_name_raw: string }[] }).studies[0]?.patient_name_raw.length,
    ).toBeGreaterThan(10_000);

    const cut = await run(['upload', ex.root, '--name', 'cut'], env(join(tmp, 'data-long')));
    expect(cut.code, cut.stderr).toBe(0);
    expect(cut.stderr).toMatch(
      /The patient name has 1024\d characters; the service keeps at most 200: it was cut to 200\. \(correct it with --patient-name\)/,
    );
    const first = await examsOf(patientId);
    expect(first).toHaveLength(1);
    expect(first[0]?.patient_name).toHaveLength(200);

    const fixed = await run(
      ['upload', ex.root, '--name', 'fixed', '--patient-name', 'Ana Pérez', '--patient-id', 'LONG-NAME-2'],
      env(join(tmp, 'data-long-2')),
    );
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stderr).not.toContain('cut to');
    const exam = await client.exams.get((JSON.parse(fixed.stdout) as { exam_id: string }).exam_id);
    expect(exam).toMatchObject({ patient_name: 'Ana Pérez', patient_id: 'LONG-NAME-2', status: 'ready' });
  }, 60_000);
});

describe('precise messages', () => {
  it('scan "" is an error, not the current folder', async () => {
    const r = await run(['scan', ''], env(join(tmp, 'data-msg')));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the folder name is empty');
    expect(r.stdout).toBe('');
  });

  it('a root folder that cannot be read is an error, not "0 studies" (scan and upload, as an unprivileged user)', async () => {
    const base = join(tmp, 'closed-base');
    mkdirSync(base, { recursive: true });
    chmodSync(tmp, 0o755);
    chmodSync(base, 0o755);
    const closed = join(base, 'closed');
    await writeCbctExport(closed, { volumeSlices: 2, scoutSlices: 1, dicomdir: false });
    chmodSync(closed, 0o000);
    const dataDir = join(base, 'data');
    mkdirSync(dataDir);
    if (process.getuid?.() === 0) chownSync(dataDir, 65534, 65534);
    const scan = await run(['scan', closed], env(dataDir, { HOME: dataDir }), 'nobody');
    expect(scan.code).toBe(1);
    expect(scan.stderr).toContain(`cannot read folder: ${closed} (permission denied)`);
    expect(scan.stdout).not.toContain('0 studies');
    const up = await run(['upload', closed], env(dataDir, { HOME: dataDir }), 'nobody');
    expect(up.code).toBe(1);
    expect(up.stderr).toContain(`cannot read folder: ${closed} (permission denied)`);
  }, 60_000);

  it('after repeated 500s the upload says the service failed, not that it could not be reached', async () => {
    const ex = await writeCbctExport(join(tmp, 'five-hundred'), {
      volumeSlices: 2,
      scoutSlices: 1,
      patientId: 'FIVE-HUNDRED',
      dicomdir: false,
    });
    await emu.control('POST', '/faults', { target: 'api', mode: 'error500', count: 50, match: 'POST /api/v1/exams' });
    try {
      const r = await run(['upload', ex.root], env(join(tmp, 'data-500')));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('The service failed');
      expect(r.stderr).toContain('HTTP 500');
      expect(r.stderr).not.toContain('could not be reached');
    } finally {
      await emu.control('DELETE', '/faults');
    }
  }, 120_000);
});
