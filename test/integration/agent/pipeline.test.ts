// One way through the agent, with real processes, the emulator and DCMTK files: the watcher never
// waits on an upload (one stuck or paused upload holds up neither the inbox nor the other
// uploads), and the app, `scanbridge serve` and `scanbridge watch` name a study the same way.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, readdir, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxItem, UploadJobView } from '@preload/contract';
import { startAgent } from '@main/core/agent';
import { MemorySecretStore } from '@main/core/secrets';
import { writeRadiograph } from '../../fixtures/dicom/generate';
import { api, EmulatorProcess } from '../../support/emulator/emulator';
import { smallSeries } from '../../support/harness/watch-harness';
import type { Proc } from '../../support/harness/agent-processes';
import { startServe, startWatch } from '../../support/harness/agent-processes';

let emulator: EmulatorProcess;
let scratch: string;
const procs: Proc[] = [];

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  scratch = mkdtempSync(join(tmpdir(), 'sb-pipeline-'));
});
afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  await emulator?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** The emulator's storage object name of a file (its faults match on it). */
const objectName = (name: string): string =>
  `f-${createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 40)}`;

type Armed = { armed: { target: string; count: number; match?: string }[] };

describe('the agent pipeline', () => {
  it('shows and uploads new exports while one upload keeps failing on storage 500s, and while it is paused', async () => {
    const clinic = join(scratch, 'clinic');
    const staging = join(scratch, 'staging');
    const [stuckDir, reviewDir, autoDir] = ['stuck', 'review', 'auto'].map((d) => join(clinic, d)) as [
      string,
      string,
      string,
    ];
    for (const d of [stuckDir, reviewDir, autoDir, staging]) await mkdir(d, { recursive: true });
    const serve = await startServe(scratch, {
      SCANBRIDGE_API_URL: emulator.info.base_url,
      SCANBRIDGE_API_KEY: emulator.info.keys.pro,
      SCANBRIDGE_CONFIG_DIR: join(scratch, 'serve-config'),
      SCANBRIDGE_DATA_DIR: join(scratch, 'serve-data'),
    });
    procs.push(serve);
    const settle = 1;
    await serve.call('folders:add', {
      path: stuckDir,
      exam_type: 'cbct',
      mode: 'auto',
      settle_seconds: settle,
      polling: false,
    });
    await serve.call('folders:add', {
      path: reviewDir,
      exam_type: 'from_dicom',
      mode: 'review',
      settle_seconds: settle,
      polling: false,
    });
    await serve.call('folders:add', {
      path: autoDir,
      exam_type: 'from_dicom',
      mode: 'auto',
      settle_seconds: settle,
      polling: false,
    });

    const inboxItem = async (studyUid: string): Promise<InboxItem | undefined> =>
      (await serve.call('inbox:list', {})).find((i) => i.study_uid === studyUid);
    const jobOf = async (studyUid: string): Promise<UploadJobView | undefined> => {
      const item = await inboxItem(studyUid);
      return item?.job_id ? (await serve.call('uploads:list', {})).find((j) => j.id === item.job_id) : undefined;
    };
    /** Drops a whole export into a watched folder at once; returns when it appeared. */
    let n = 0;
    const drop = async (dir: string): Promise<{ studyUid: string; at: number }> => {
      const name = `EXPORT_${++n}`;
      const series = await smallSeries(join(staging, name), 2);
      await rename(join(staging, name), join(dir, name));
      return { studyUid: series.studyUid, at: Date.now() };
    };

    // Every storage PUT of the stuck study's two files fails with a 500, for as long as the test runs.
    const stuckNames = ['STUCK01.dcm', 'STUCK02.dcm'];
    for (const name of stuckNames)
      await emulator.control('POST', '/faults', {
        target: 'storage',
        mode: 'error500',
        count: 100_000,
        match: objectName(name),
      });
    const stuck = await smallSeries(join(staging, 'STUCK'), 2, { fileName: (i) => stuckNames[i] ?? `x${i}.dcm` });
    await rename(join(staging, 'STUCK'), join(stuckDir, 'STUCK'));
    await until(async () => {
      const { armed } = await emulator.control<Armed>('GET', '/faults');
      return armed.every((f) => f.count < 100_000 - 2) ? true : undefined;
    }, 'the stuck upload to hit its storage faults');
    const stuckJob = await until(() => jobOf(stuck.studyUid), 'the stuck job');

    const budget = settle * 1000 + 2000;
    for (const round of ['failing', 'paused'] as const) {
      if (round === 'paused') {
        expect((await serve.call('uploads:pause', { id: stuckJob.id })).phase).toBe('paused');
      }
      // A study for review appears in the inbox within its settle time + 2 s.
      const review = await drop(reviewDir);
      await until(() => inboxItem(review.studyUid), `the ${round} round's review study in the inbox`, budget + 5000);
      expect(Date.now() - review.at, `inbox delay while the stuck upload is ${round}`).toBeLessThanOrEqual(budget);
      // An automatic one appears at once too, and is uploaded alongside.
      const auto = await drop(autoDir);
      await until(() => inboxItem(auto.studyUid), `the ${round} round's automatic study in the inbox`, budget + 5000);
      expect(Date.now() - auto.at).toBeLessThanOrEqual(budget);
      const done = await until(async () => {
        const j = await jobOf(auto.studyUid);
        return j?.phase === 'ready' ? j : undefined;
      }, `the ${round} round's automatic upload`);
      const exam = await api(emulator.info, emulator.info.keys.pro, 'GET', `/exams/${done.exam_id ?? ''}`);
      expect(exam.json).toMatchObject({ status: 'ready', file_count: 2 });
      // …while the stuck one is still not through.
      const now = await jobOf(stuck.studyUid);
      expect(now?.phase).not.toBe('ready');
      if (round === 'paused') expect(now?.phase).toBe('paused');
    }

    // Nothing is lost: once storage answers again, the stuck upload finishes when resumed.
    await emulator.control('DELETE', '/faults');
    await serve.call('uploads:resume', { id: stuckJob.id });
    const finished = await until(
      async () => {
        const j = await jobOf(stuck.studyUid);
        return j?.phase === 'ready' ? j : undefined;
      },
      'the stuck upload to finish',
      60_000,
    );
    expect(finished.files_done).toBe(2);
    expect(await serve.stop()).toBe(0);
  });

  it('the app, `scanbridge serve` and `scanbridge watch` give the same exam name and fields for the same study', async () => {
    const source = join(scratch, 'same-source.dcm');
    await writeRadiograph(source, {
      modality: 'PX',
      patientName: 'NÚÑEZ^ÁLVARO',
      patientId: '12345678-5',
      birthDate: '19800131',
      studyDate: '20260310',
      charset: 'latin1',
    });
    const exportOf = async (who: string): Promise<string> => {
      const dir = join(scratch, `same-${who}`);
      await mkdir(join(dir, 'PANO'), { recursive: true });
      copyFileSync(source, join(dir, 'PANO', 'PX000001.dcm'));
      return dir;
    };
    const env = {
      SCANBRIDGE_API_URL: emulator.info.base_url,
      SCANBRIDGE_API_KEY: emulator.info.keys.pro,
      LC_ALL: 'es_CL.UTF-8',
    };
    const examOf = async (id: string): Promise<Record<string, unknown>> => {
      const e = (await api(emulator.info, emulator.info.keys.pro, 'GET', `/exams/${id}`)).json;
      return {
        name: e['name'],
        exam_type: e['exam_type'],
        patient_name: e['patient_name'],
        patient_id: e['patient_id'],
        birth_date: e['birth_date'],
      };
    };

    // The app: the agent in this process, with the OS language Electron reports.
    const appDir = await exportOf('app');
    const agent = await startAgent({
      dataDir: join(scratch, 'same-app-data'),
      configDir: join(scratch, 'same-app-config'),
      env,
      secretStore: new MemorySecretStore(),
      transport: 'ipc',
      systemLanguage: 'es',
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    let appExam: Record<string, unknown>;
    try {
      await agent.host.call('folders:add', {
        path: appDir,
        exam_type: 'from_dicom',
        mode: 'auto',
        settle_seconds: 1,
        polling: false,
      });
      const job = await until(
        async () => ((await agent.host.call('uploads:list', {})) as UploadJobView[]).find((j) => j.phase === 'ready'),
        'the app upload',
      );
      appExam = await examOf(job.exam_id ?? '');
    } finally {
      await agent.stop();
    }

    const serveDir = await exportOf('serve');
    const serve = await startServe(scratch, {
      ...env,
      SCANBRIDGE_CONFIG_DIR: join(scratch, 'same-serve-config'),
      SCANBRIDGE_DATA_DIR: join(scratch, 'same-serve-data'),
    });
    procs.push(serve);
    await serve.call('folders:add', {
      path: serveDir,
      exam_type: 'from_dicom',
      mode: 'auto',
      settle_seconds: 1,
      polling: false,
    });
    const serveJob = await until(
      async () => (await serve.call('uploads:list', {})).find((j) => j.phase === 'ready'),
      'the serve upload',
    );
    const serveExam = await examOf(serveJob.exam_id ?? '');
    expect(await serve.stop()).toBe(0);

    const watchDir = await exportOf('watch');
    const watch = startWatch([watchDir], 1, {
      ...env,
      SCANBRIDGE_CONFIG_DIR: join(scratch, 'same-watch-config'),
      SCANBRIDGE_DATA_DIR: join(scratch, 'same-watch-data'),
    });
    procs.push(watch);
    await until(async () => (watch.stdout().length > 0 ? true : undefined), `the watch upload: ${watch.stderr()}`);
    const watchExam = await examOf((JSON.parse(watch.stdout()[0] ?? '{}') as { exam_id: string }).exam_id);
    expect(await watch.stop()).toBe(0);

    expect(appExam).toEqual({
      name: 'Radiografía ÁLVARO NÚÑEZ 2026-03-10',
      exam_type: 'radiografia',
      patient_name: 'ÁLVARO NÚÑEZ',
      patient_id: '12345678-5',
      birth_date: '1980-01-31',
    });
    expect(serveExam).toEqual(appExam);
    expect(watchExam).toEqual(appExam);
  });

  it('two workstations reviewing one share create one exam, and the share records it', async () => {
    const share = join(scratch, 'review-share');
    await smallSeries(join(share, 'PANO'), 2);
    const before = (await api(emulator.info, emulator.info.keys.pro, 'GET', '/exams?limit=1')).json['total'] as number;
    const station = (name: string) =>
      startAgent({
        dataDir: join(scratch, `${name}-data`),
        configDir: join(scratch, `${name}-config`),
        env: { SCANBRIDGE_API_URL: emulator.info.base_url, SCANBRIDGE_API_KEY: emulator.info.keys.pro },
        secretStore: new MemorySecretStore(),
        transport: 'ipc',
        systemLanguage: 'es',
        log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      });
    const [a, b] = await Promise.all([station('desk-a'), station('desk-b')]);
    try {
      for (const ws of [a, b])
        await ws.host.call('folders:add', {
          path: share,
          exam_type: 'radiografia',
          mode: 'review',
          settle_seconds: 1,
          polling: false,
        });
      const itemOf = async (ws: typeof a): Promise<InboxItem> =>
        until(async () => ((await ws.host.call('inbox:list', {})) as InboxItem[])[0], 'the study in the inbox');
      const [ia, ib] = await Promise.all([itemOf(a), itemOf(b)]);
      // Both front desks press Upload at once.
      const outcomes = await Promise.allSettled([
        a.host.call('inbox:upload', { id: ia.id }),
        b.host.call('inbox:upload', { id: ib.id }),
      ]);
      const accepted = outcomes.filter((o) => o.status === 'fulfilled');
      expect(accepted).toHaveLength(1);
      expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: { code: 'conflict' } });
      const winner = outcomes[0]?.status === 'fulfilled' ? a : b;
      const job = await until(
        async () => ((await winner.host.call('uploads:list', {})) as UploadJobView[]).find((j) => j.phase === 'ready'),
        'the reviewed upload',
      );
      // The done marker is on the share: the other desk, asked again, does not upload it either.
      const marker = await until(
        async () =>
          (await readdir(join(share, 'PANO'))).some((f) => f.startsWith('.scanbridge-done-')) ? true : undefined,
        'the done marker',
      );
      expect(marker).toBe(true);
      const loser = winner === a ? b : a;
      const loserItem = winner === a ? ib : ia;
      await expect(loser.host.call('inbox:upload', { id: loserItem.id })).rejects.toMatchObject({
        code: 'conflict',
        message: expect.stringContaining(job.exam_id ?? 'x'),
      });
      expect((await api(emulator.info, emulator.info.keys.pro, 'GET', '/exams?limit=1')).json['total']).toBe(
        before + 1,
      );
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('deletes the half-made exam of an unfinished upload whose files changed, and uploads the new files', async () => {
    const folder = join(scratch, 'superseded');
    const staging = join(scratch, 'superseded-staging');
    await mkdir(folder, { recursive: true });
    const names = ['SUP01.dcm', 'SUP02.dcm', 'SUP03.dcm'];
    for (const name of names)
      await emulator.control('POST', '/faults', {
        target: 'storage',
        mode: 'error500',
        count: 100_000,
        match: objectName(name),
      });
    const series = await smallSeries(join(staging, 'EXP'), 3, { fileName: (i) => names[i] ?? `x${i}.dcm` });
    const agent = await startAgent({
      dataDir: join(scratch, 'superseded-data'),
      configDir: join(scratch, 'superseded-config'),
      env: { SCANBRIDGE_API_URL: emulator.info.base_url, SCANBRIDGE_API_KEY: emulator.info.keys.pro },
      secretStore: new MemorySecretStore(),
      transport: 'ipc',
      systemLanguage: 'es',
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    const jobs = async (): Promise<UploadJobView[]> => (await agent.host.call('uploads:list', {})) as UploadJobView[];
    try {
      await agent.host.call('folders:add', {
        path: folder,
        exam_type: 'cbct',
        mode: 'auto',
        settle_seconds: 1,
        polling: false,
      });
      // Only two of the three slices at first; the upload gets its exam, then storage keeps failing.
      await mkdir(join(folder, 'EXP'));
      for (const f of series.files.slice(0, 2))
        copyFileSync(f.path, join(folder, 'EXP', names[series.files.indexOf(f)] ?? 'x'));
      const first = await until(
        async () => (await jobs()).find((j) => j.exam_id !== null && j.files_total === 2),
        'the first upload to have its exam',
      );
      // The scanner writes the last slice: the export changed while its upload was unfinished.
      copyFileSync(series.files[2]?.path ?? '', join(folder, 'EXP', 'SUP03.dcm'));
      await until(
        async () => ((await jobs()).find((j) => j.id === first.id)?.phase === 'cancelled' ? true : undefined),
        'the first upload to be superseded',
      );
      const old = await api(emulator.info, emulator.info.keys.pro, 'GET', `/exams/${first.exam_id ?? ''}`);
      expect(old.status).toBe(404);
      // The study stays claimed on the share for the upload of its new files: no moment in which
      // another workstation could take it.
      const claimFiles = (): string[] =>
        readdirSync(join(folder, 'EXP')).filter((n) => n.startsWith('.scanbridge-claim-'));
      await until(
        async () => ((await jobs()).some((j) => j.id !== first.id && j.files_total === 3) ? true : undefined),
        'the upload of the new files',
      );
      expect(claimFiles()).toHaveLength(1);
      // Storage answers again: the new files make the one exam.
      await emulator.control('DELETE', '/faults');
      const done = await until(async () => (await jobs()).find((j) => j.phase === 'ready'), 'the new upload', 60_000);
      expect(done.files_total).toBe(3);
      const exam = await api(emulator.info, emulator.info.keys.pro, 'GET', `/exams/${done.exam_id ?? ''}`);
      expect(exam.json).toMatchObject({ status: 'ready', file_count: 3 });
      // Done: the claim gave way to the done marker.
      await until(async () => (claimFiles().length === 0 ? true : undefined), 'the claim to be released');
      expect(readdirSync(join(folder, 'EXP')).some((n) => n.startsWith('.scanbridge-done-'))).toBe(true);
    } finally {
      await emulator.control('DELETE', '/faults');
      await agent.stop();
    }
  });
});
