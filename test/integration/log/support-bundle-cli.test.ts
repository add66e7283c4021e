// `scanbridge support-bundle` (CONTRACTS.md §3) on a data folder after a real upload: the ZIP's
// entries (the log of the days asked for, the connection check as `doctor --json` gives it, the
// upload lists, the settings summary), its last stdout line, its permissions, and the redaction of
// everything in it — including a log line written by hand with a patient's name and RUT (as an
// older version might have) and a listed upload whose error message names the patient.
import { spawn } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { openPromise } from 'yauzl';
import { writeUploadList } from '@main/core/agent/queue/upload-list-store';
import { daysBefore, localDay } from '@main/core/log';
import { emulatorScene } from '@support/emulator/emulator-scene';
import { cliBin, cliNodeOptions, repoRoot } from '@support/repo-paths';
import { writeCtSeries } from '@fixtures/dicom/generate';

const scene = emulatorScene({ scratch: 'sb-bundle-' });

type Run = { code: number | null; stdout: string; stderr: string };
function cli(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const child = spawn(process.execPath, [...cliNodeOptions, cliBin, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((r) => child.once('close', (code) => r({ code, stdout, stderr })));
}

async function readZip(path: string): Promise<Map<string, string>> {
  const zip = await openPromise(path, { validateEntrySizes: true, autoClose: false });
  const out = new Map<string, string>();
  try {
    for await (const e of zip.eachEntry())
      out.set(e.fileName, (await buffer(await zip.openReadStreamPromise(e))).toString('utf8'));
  } finally {
    zip.close();
  }
  return out;
}

const FORBIDDEN = [/zapatero/i, /eufemia/i, /PX-88417723/, /88417723/, /19370415/, /12\.345\.678-5/];

describe('scanbridge support-bundle', () => {
  it('writes the last days of the log, the connection check, the upload lists and the settings, redacted, and says where', async () => {
    const { emulator, scratch } = scene;
    const dataDir = join(scratch, 'data');
    const env = {
      SCANBRIDGE_API_URL: emulator.info.base_url,
      SCANBRIDGE_API_KEY: emulator.info.keys.pro,
      SCANBRIDGE_DATA_DIR: dataDir,
      SCANBRIDGE_CONFIG_DIR: join(scratch, 'config'),
    };
    const study = await writeCtSeries(join(scratch, 'ZAPATERO EUFEMIA'), {
      slices: 2,
      rows: 32,
      cols: 32,
      patientName: 'ZAPATERO^EUFEMIA',
      patientId: 'PX-88417723',
      birthDate: '19370415',
    });
    const upload = await cli(['upload', study.dir], env);
    expect(upload.code, upload.stderr).toBe(0);
    const examId = (JSON.parse(upload.stdout) as { exam_id: string }).exam_id;

    // Log files of two and of ten days ago: --days 3 takes the first, not the second.
    const today = localDay(new Date());
    const logs = join(dataDir, 'logs');
    const older = `scanbridge-${daysBefore(today, 2)}.log`;
    writeFileSync(
      join(logs, older),
      `${JSON.stringify({ level: 'warn', time: '2026-01-01T00:00:00.000Z', pid: 1, cmd: 'watch', msg: 'study of ZAPATERO^EUFEMIA rut 12.345.678-5 failed', bytes: 123456789 })}\n`,
    );
    writeFileSync(join(logs, `scanbridge-${daysBefore(today, 9)}.log`), '{"msg":"too old"}\n');
    // A failed upload in the watch command's list, its message naming the patient.
    mkdirSync(join(dataDir, 'watch', 'agent'), { recursive: true });
    const view = {
      id: 'job_7f3a',
      inbox_id: null,
      name: 'CBCT ZAPATERO EUFEMIA',
      patient_name: 'ZAPATERO EUFEMIA',
      exam_type: 'cbct',
      phase: 'failed',
      mode: 'zip',
      exam_id: 'exm_half',
      viewer_url: 'https://viewer.example/v/exm_half?token=abc',
      bytes_total: 1000,
      bytes_sent: 10,
      files_total: 2,
      files_done: 0,
      rate: 0,
      eta_seconds: null,
      error: { code: 'storage_error', message: 'could not read /exports/ZAPATERO EUFEMIA/IMG1' },
      retry_at: null,
      created_at: '2026-11-20T10:00:00.000Z',
      updated_at: '2026-11-20T10:05:00.000Z',
    };
    await writeUploadList(join(dataDir, 'watch', 'agent', 'uploads.json'), [
      {
        view,
        journal: null,
        source: 'auto',
        root: '/exports/ZAPATERO EUFEMIA',
        expiration_days: null,
        ledger: null,
        user_paused: false,
      },
    ] as Parameters<typeof writeUploadList>[1]);

    const out = join(scratch, 'bundle.zip');
    const run = await cli(['support-bundle', '--out', out, '--days', '3'], env);
    expect(run.code, run.stderr).toBe(0);
    const last = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as {
      file: string;
      bytes: number;
      entries: number;
    };
    expect(last).toEqual({ file: out, bytes: statSync(out).size, entries: 6 });
    expect(statSync(out).mode & 0o777).toBe(0o600);

    const zip = await readZip(out);
    expect([...zip.keys()].sort()).toEqual(
      [
        'README.txt',
        'connection-check.json',
        `logs/${older}`,
        `logs/scanbridge-${today}.log`,
        'settings.json',
        'upload-queue.json',
      ].sort(),
    );
    // The connection check: the shape `doctor --json` prints, and it passed.
    const doctor = await cli(['doctor', '--json'], env);
    const doctorReport = JSON.parse(doctor.stdout) as Record<string, unknown>;
    const check = JSON.parse(zip.get('connection-check.json') ?? '') as Record<string, unknown>;
    expect(Object.keys(check)).toEqual(Object.keys(doctorReport));
    expect(check).toMatchObject({ ok: true, api_url: emulator.info.base_url });
    // The log: today's lines as written (the upload, by exam id), the old line redacted value by value.
    const todayLines = (zip.get(`logs/scanbridge-${today}.log`) ?? '')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(todayLines).toContainEqual(expect.objectContaining({ cmd: 'upload', msg: 'upload ready', exam_id: examId }));
    expect(JSON.parse(zip.get(`logs/${older}`) ?? '')).toEqual({
      level: 'warn',
      time: '2026-01-01T00:00:00.000Z',
      pid: 1,
      cmd: 'watch',
      msg: 'study of [patient]^[patient] rut [id] failed',
      bytes: 123456789,
    });
    // The upload lists: ids, states and codes; no names, messages or links.
    expect(JSON.parse(zip.get('upload-queue.json') ?? '')).toEqual([
      expect.objectContaining({
        id: 'job_7f3a',
        phase: 'failed',
        exam_id: 'exm_half',
        error: { code: 'storage_error', net: null },
      }),
    ]);
    expect(zip.get('upload-queue.json')).not.toMatch(/token|viewer|exports/);
    // The settings summary: the key in use by kind only.
    expect(JSON.parse(zip.get('settings.json') ?? '')).toMatchObject({
      transport: 'cli',
      settings: { key_in_use: 'live' },
    });

    const all = [...zip.values()].join('\n');
    for (const re of FORBIDDEN) expect(all).not.toMatch(re);
    expect(all).not.toContain(emulator.info.keys.pro);
    expect(all).not.toContain(study.studyUid);
    expect(all).not.toContain('too old');
  });

  it('refuses a bundle without --out or with days out of range', async () => {
    const env = { SCANBRIDGE_DATA_DIR: join(scene.scratch, 'none') };
    expect((await cli(['support-bundle'], env)).code).toBe(2);
    expect((await cli(['support-bundle', '--out', join(scene.scratch, 'x.zip'), '--days', '0'], env)).code).toBe(2);
  });
});
