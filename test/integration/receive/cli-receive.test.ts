// `scanbridge receive` against DCMTK's storescu/echoscu and the emulator: what a scanner sending
// over the network meets (CONTRACTS.md §2), from C-ECHO to exams on the service.
import { mkdtempSync, rmSync } from 'node:fs';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, EmulatorProcess } from '@support/emulator/emulator';
import { smallSeries, waitFor } from '@support/harness/watch-harness';
import { writeRadiograph } from '@fixtures/dicom/generate';
import type { WrittenSeries } from '@fixtures/dicom/generate';
import {
  dcmtk,
  listeningPort,
  pixelHash,
  type ReceiveCli,
  startReceive,
  storescu,
} from '@support/harness/receive-harness';

let emulator: EmulatorProcess;
let scratch: string;
const running: ReceiveCli[] = [];

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  scratch = mkdtempSync(join(tmpdir(), 'sb-receive-'));
});
afterAll(async () => {
  for (const c of running) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  await emulator?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

const KEY = (): string => emulator.info.keys.clinica;

async function receive(dataDir: string, extra: string[] = []): Promise<{ cli: ReceiveCli; port: number }> {
  const cli = startReceive(['--port', '0', '--quiet', '2', '--json', ...extra], {
    SCANBRIDGE_API_URL: emulator.info.base_url,
    SCANBRIDGE_API_KEY: KEY(),
    SCANBRIDGE_DATA_DIR: dataDir,
  });
  running.push(cli);
  await waitFor(() => listeningPort(cli) !== null || cli.child.exitCode !== null, 30_000, `listening: ${cli.stderr()}`);
  const port = listeningPort(cli);
  if (port === null) throw new Error(`receive did not start: ${cli.stderr()}`);
  return { cli, port };
}

type Ready = { event: string; study_uid: string; exam_id: string; files: number; bytes: number };
const readyLines = (cli: ReceiveCli): Ready[] =>
  cli
    .stdout()
    .slice(1)
    .map((l) => JSON.parse(l) as Ready);
const readyFor = (cli: ReceiveCli, studyUid: string): Ready[] =>
  readyLines(cli).filter((r) => r.study_uid === studyUid);
/** The one ready line of a study (throws when there is none or more than one). */
function onlyReady(cli: ReceiveCli, studyUid: string): Ready {
  const lines = readyFor(cli, studyUid);
  if (lines.length !== 1 || !lines[0]) throw new Error(`expected one ready line, got ${lines.length}`);
  return lines[0];
}

async function exam(id: string): Promise<Record<string, unknown>> {
  return (await api(emulator.info, KEY(), 'GET', `/exams/${id}`)).json;
}

/** The pixel-data hashes of every main file the service stores for an exam. */
async function storedPixelHashes(examId: string): Promise<string[]> {
  const dir = join(emulator.dataDir, 'objects', examId);
  const names = (await readdir(dir)).filter((n) => n.startsWith('f-'));
  return Promise.all(names.map((n) => pixelHash(join(dir, n))));
}

/** A CT series of `slices` 32×32 images in its own folder. */
const series = (name: string, slices: number, studyUid?: string): Promise<WrittenSeries> =>
  smallSeries(join(scratch, name), slices, studyUid ? { studyUid } : {});

describe('scanbridge receive', () => {
  it('answers C-ECHO, refuses a wrong called AE title, makes two exams of a CBCT and a panoramic sent together, one exam of a study sent over two associations, and no second exam of a study sent again', async () => {
    const { cli, port } = await receive(join(scratch, 'data-main'));
    expect(cli.stdout()[0]).toBe(JSON.stringify({ listening: { port, aet: 'SCANBRIDGE' } }));

    expect((await dcmtk('echoscu', ['-aec', 'SCANBRIDGE', '127.0.0.1', String(port)])).code).toBe(0);
    const wrong = await dcmtk('echoscu', ['-aec', 'PACS', '127.0.0.1', String(port)]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('Called AE Title Not Recognized');

    // One association: a 600-slice CBCT and a panoramic (two studies).
    const cbct = await series('cbct', 600);
    const pano = await writeRadiograph(join(scratch, 'pano', 'PANO.dcm'), {
      modality: 'PX',
      patientName: 'PRUEBA^ANA',
      patientId: 'T-1',
    });
    const sent = await storescu(port, [cbct.dir, pano.path]);
    expect(sent.code, sent.stderr).toBe(0);
    await waitFor(() => readyLines(cli).length === 2, 120_000, `two exams: ${cli.stderr()}`);
    const cbctReady = onlyReady(cli, cbct.studyUid);
    const panoReady = onlyReady(cli, pano.studyUid);
    expect(cbctReady).toMatchObject({ event: 'ready', files: 600 });
    expect(panoReady).toMatchObject({ event: 'ready', files: 1 });
    expect(await exam(cbctReady.exam_id)).toMatchObject({ status: 'ready', exam_type: 'cbct', file_count: 600 });
    expect(await exam(panoReady.exam_id)).toMatchObject({ status: 'ready', exam_type: 'radiografia', file_count: 1 });
    // Pixel data on the service is what was sent, byte for byte.
    const sentHashes = await Promise.all(cbct.files.map((f) => pixelHash(f.path)));
    expect((await storedPixelHashes(cbctReady.exam_id)).sort()).toEqual(sentHashes.sort());
    expect(await storedPixelHashes(panoReady.exam_id)).toEqual([await pixelHash(pano.path)]);

    // One study over two associations a moment apart: one exam with every image.
    const split = await series('split', 8);
    const [firstHalf, secondHalf] = [split.files.slice(0, 4), split.files.slice(4)];
    expect(
      (
        await storescu(
          port,
          firstHalf.map((f) => f.path),
        )
      ).code,
    ).toBe(0);
    expect(
      (
        await storescu(
          port,
          secondHalf.map((f) => f.path),
        )
      ).code,
    ).toBe(0);
    await waitFor(() => readyFor(cli, split.studyUid).length === 1, 60_000, `the split study: ${cli.stderr()}`);
    expect(readyFor(cli, split.studyUid)[0]).toMatchObject({ files: 8, bytes: expect.any(Number) });

    // The CBCT sent again: recognised by its SOP Instance UIDs, no second exam.
    const before = readyLines(cli).length;
    expect((await storescu(port, [cbct.dir])).code).toBe(0);
    await waitFor(() => cli.stderr().includes('already uploaded as exam'), 60_000, `the resend: ${cli.stderr()}`);
    expect(cli.stderr()).toContain(`already uploaded as exam ${cbctReady.exam_id}`);
    expect(readyLines(cli)).toHaveLength(before);

    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    // No patient data in the log lines.
    expect(cli.stderr()).not.toMatch(/PRUEBA|T-1/);
  }, 240_000);

  it('keeps an aborted association for a resend, never uploads it alone, and a whole resend makes exactly one exam', async () => {
    const { cli, port } = await receive(join(scratch, 'data-abort'));
    const study = await series('aborted', 10);
    const part = join(scratch, 'aborted-part');
    await mkdir(part);
    for (const f of study.files.slice(0, 6)) await copyFile(f.path, join(part, basename(f.path)));
    await storescu(port, [part], { abort: true });
    await waitFor(() => cli.stderr().includes('association aborted after 6 object(s)'), 30_000, cli.stderr());
    // A later complete study becomes ready after the quiet time: the aborted one, older, did not.
    const other = await series('after-abort', 3);
    expect((await storescu(port, [other.dir])).code).toBe(0);
    await waitFor(() => readyFor(cli, other.studyUid).length === 1, 60_000, cli.stderr());
    expect(readyFor(cli, study.studyUid)).toEqual([]);

    expect((await storescu(port, [study.dir])).code).toBe(0);
    await waitFor(() => readyFor(cli, study.studyUid).length === 1, 60_000, cli.stderr());
    const ready = onlyReady(cli, study.studyUid);
    expect(ready).toMatchObject({ files: 10 });
    expect(await exam(ready.exam_id)).toMatchObject({ status: 'ready', file_count: 10 });
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
  }, 120_000);

  it('stops cleanly on SIGTERM in the middle of an association, and the next start finishes the study', async () => {
    const dataDir = join(scratch, 'data-sigterm');
    const first = await receive(dataDir);
    const study = await series('interrupted', 300);
    const sending = storescu(first.port, [study.dir]);
    const studies = join(dataDir, 'receive', 'studies');
    const receivedCount = async (): Promise<number> => {
      const dirs = await readdir(studies).catch(() => [] as string[]);
      const counts = await Promise.all(dirs.map((d) => readdir(join(studies, d)).then((f) => f.length)));
      return counts.reduce((a, b) => a + b, 0);
    };
    let count = 0;
    await waitFor(() => (void receivedCount().then((n) => (count = n)), count >= 20), 60_000, 'objects to arrive');
    first.cli.child.kill('SIGTERM');
    expect(await first.cli.exited).toBe(0);
    const cut = await sending;
    expect(cut.code).not.toBe(0); // the sender saw its association end early
    expect(readyLines(first.cli)).toEqual([]);

    const second = await receive(dataDir);
    expect((await storescu(second.port, [study.dir])).code).toBe(0);
    await waitFor(() => readyFor(second.cli, study.studyUid).length === 1, 90_000, second.cli.stderr());
    const ready = onlyReady(second.cli, study.studyUid);
    expect(ready).toMatchObject({ files: 300 });
    expect(await exam(ready.exam_id)).toMatchObject({ status: 'ready', file_count: 300 });
    second.cli.child.kill('SIGTERM');
    expect(await second.cli.exited).toBe(0);
  }, 180_000);
});
