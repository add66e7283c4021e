// The log of CONTRACTS.md §3 read back from disk after real work: `scanbridge upload` against the
// emulator, `scanbridge watch` uploading an export dropped into its folder and `scanbridge
// receive` taking a study from DCMTK's storescu, all in one data folder (so three processes append
// to the same day's file, two of them at once), then `doctor`. Every line must parse, carry its
// command and pid, and hold none of the patient's name, ID or birth date, nor the StudyInstanceUID
// or the API key — although the export folders are named after the patient, as scanners do.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localDay, studyHash } from '@main/core/log';
import { emulatorScene } from '@support/emulator/emulator-scene';
import { listeningPort, type ReceiveCli, startReceive, storescu } from '@support/harness/receive-harness';
import { cliBin, cliNodeOptions, repoRoot } from '@support/repo-paths';
import { waitFor } from '@support/harness/watch-harness';
import { writeCtSeries, type WrittenSeries } from '@fixtures/dicom/generate';

const running: ReceiveCli[] = [];
const scene = emulatorScene({
  scratch: 'sb-log-',
  atEnd: () => running.forEach((c) => c.child.exitCode === null && c.child.kill('SIGKILL')),
});

// Distinctive values: any of them in the log can only have come from the DICOM files.
const PATIENT = { name: 'ZAPATERO^EUFEMIA^QUINTERA', id: 'PX-88417723', birth: '19370415' };
const FORBIDDEN = [/zapatero/i, /eufemia/i, /quintera/i, /PX-88417723/i, /88417723/, /19370415/, /1937-04-15/];

function series(dir: string): Promise<WrittenSeries> {
  return writeCtSeries(dir, {
    slices: 3,
    rows: 32,
    cols: 32,
    patientName: PATIENT.name,
    patientId: PATIENT.id,
    birthDate: PATIENT.birth,
    studyDate: '20260302',
  });
}

type Run = { code: number | null; stdout: string; stderr: string };
function cli(args: string[], env: NodeJS.ProcessEnv): { done: Promise<Run>; stop: () => void; out: () => string } {
  const child = spawn(process.execPath, [...cliNodeOptions, cliBin, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<Run>((r) => child.once('close', (code) => r({ code, stdout, stderr })));
  return { done, stop: () => void child.kill('SIGTERM'), out: () => stdout + stderr };
}

type Line = Record<string, unknown> & { level: string; time: string; msg: string; pid: number; cmd: string };

describe('the log after real work', () => {
  it('holds the work of upload, watch, receive and doctor, in JSON lines without patient data, keys or study UIDs', async () => {
    const { emulator, scratch } = scene;
    const dataDir = join(scratch, 'data');
    const env = {
      SCANBRIDGE_API_URL: emulator.info.base_url,
      SCANBRIDGE_API_KEY: emulator.info.keys.pro,
      SCANBRIDGE_DATA_DIR: dataDir,
      SCANBRIDGE_CONFIG_DIR: join(scratch, 'config'),
      SCANBRIDGE_LOG_LEVEL: 'debug',
    };

    // upload, twice: the second run finds the same files already uploaded.
    const uploaded = await series(join(scratch, 'ZAPATERO EUFEMIA 19370415'));
    const first = await cli(['upload', uploaded.dir], env).done;
    expect(first.code, first.stderr).toBe(0);
    const examId = (JSON.parse(first.stdout.trim()) as { exam_id: string }).exam_id;
    const again = await cli(['upload', uploaded.dir], env).done;
    expect(again.code, again.stderr).toBe(0);

    // watch and receive at the same time, in the same data folder.
    const watched = join(scratch, 'watched');
    await mkdir(watched);
    const watch = cli(['watch', watched, '--settle', '1'], env);
    await waitFor(() => watch.out().includes('Watching 1 folder'), 20_000, `the watcher: ${watch.out()}`);
    const receive = startReceive(['--port', '0', '--quiet', '2', '--json'], env);
    running.push(receive);
    await waitFor(() => listeningPort(receive) !== null, 30_000, `the listener: ${receive.stderr()}`);
    const watchedStudy = await series(join(watched, 'ZAPATERO_EUFEMIA_PX-88417723'));
    const sent = await series(join(scratch, 'to-send', 'QUINTERA'));
    expect((await storescu(listeningPort(receive) ?? 0, [sent.dir])).code).toBe(0);
    await waitFor(() => watch.out().includes('"status":"ready"'), 30_000, `the watch upload: ${watch.out()}`);
    await waitFor(() => receive.stdout().length >= 2, 30_000, `the received study: ${receive.stderr()}`);
    watch.stop();
    receive.child.kill('SIGTERM');
    expect((await watch.done).code).toBe(0);
    expect(await receive.exited).toBe(0);

    const doctor = await cli(['doctor', '--json'], env).done;
    expect(doctor.code, doctor.stderr).toBe(0);

    // Read back: one file (today's), private, every line a JSON object of the contract's shape.
    const logDir = join(dataDir, 'logs');
    expect(statSync(logDir).mode & 0o777).toBe(0o700);
    const files = readdirSync(logDir);
    expect(files).toEqual([`scanbridge-${localDay(new Date())}.log`]);
    const file = join(logDir, files[0] ?? '');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    const lines = text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Line);
    for (const l of lines) {
      expect(l.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(['debug', 'info', 'warn', 'error']).toContain(l.level);
      expect(typeof l.msg).toBe('string');
      expect(Number.isInteger(l.pid)).toBe(true);
    }
    const cmds = new Set(lines.map((l) => l.cmd));
    expect([...cmds].sort()).toEqual(['doctor', 'receive', 'upload', 'watch']);
    // Two uploads, one watch, one receive, one doctor: five processes, each started and ended.
    const pids = new Set(lines.map((l) => l.pid));
    expect(pids.size).toBe(5);
    expect(lines.filter((l) => l.msg === 'command ended')).toHaveLength(5);

    // The work is there, by ids and hashes.
    const of = (cmd: string, msg: string): Line[] => lines.filter((l) => l.cmd === cmd && l.msg === msg);
    expect(of('upload', 'upload ready')).toEqual([
      expect.objectContaining({ exam_id: examId, files: 3, bytes: uploaded.bytes }),
    ]);
    expect(of('upload', 'upload planned')[0]).toMatchObject({ study: studyHash(uploaded.studyUid), files: 3 });
    expect(of('upload', 'study already uploaded')).toEqual([expect.objectContaining({ exam_id: examId })]);
    expect(of('watch', 'upload ready')).toEqual([
      expect.objectContaining({ study: studyHash(watchedStudy.studyUid), files: 3, exam_id: expect.any(String) }),
    ]);
    expect(of('receive', 'association ended')[0]).toMatchObject({ aet: 'STORESCU', code: 'released', count: 3 });
    expect(of('receive', 'upload ready')).toEqual([expect.objectContaining({ study: studyHash(sent.studyUid) })]);
    expect(of('doctor', 'connection check step').map((l) => l['step'])).toEqual([
      'dns',
      'tcp',
      'proxy',
      'tls',
      'api_key',
      'storage',
      'upload_speed',
    ]);

    // Nothing of the patient, no study UID, no key: in any line, whatever its field.
    for (const re of FORBIDDEN) expect(text).not.toMatch(re);
    for (const uid of [uploaded.studyUid, watchedStudy.studyUid, sent.studyUid]) expect(text).not.toContain(uid);
    expect(text).not.toContain(emulator.info.keys.pro);
    expect(text).not.toContain(scratch);
  });
});
