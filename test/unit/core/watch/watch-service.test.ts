import { mkdtempSync, rmSync } from 'node:fs';
import { copyFile, mkdir, readdir, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../../main/core/api/client';
import { examsPortFromClient } from '../../../../main/core/upload/api-port';
import { engineUploader, Ledger, WatchService } from '../../../../main/core/watch';
import type { CoordinatorEvents } from '../../../../main/core/watch';
import { api, EmulatorProcess } from '../../../support/emulator';
import { folderConfig, record, sleep, smallSeries, waitFor } from './helpers';

let emulator: EmulatorProcess;
let scratch: string;

beforeAll(async () => {
  emulator = await EmulatorProcess.start();
  scratch = mkdtempSync(join(tmpdir(), 'sb-watch-svc-'));
});
afterAll(async () => {
  await emulator?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

type Agent = { service: WatchService; events: { [K in keyof CoordinatorEvents]: { value: CoordinatorEvents[K][0] }[] } };

/** One workstation: its own data folder (ledger, upload journals), the shared watched folder. */
async function agent(name: string, watched: string): Promise<Agent> {
  const dataDir = join(scratch, name);
  const client = createApiClient({ baseUrl: emulator.info.base_url, apiKey: emulator.info.keys.pro });
  const service = new WatchService({
    folders: [folderConfig(watched, { settle_seconds: 0.5 })],
    ledger: await Ledger.open(join(dataDir, 'watch', 'uploaded-studies.jsonl')),
    claims: { agentId: name },
    heldRetryMs: 200,
    upload: engineUploader({ port: examsPortFromClient(client), dataDir, fields: (s, exam_type) => ({ name: `Watch ${s.files} files`, exam_type, patient_id: s.patient_id }) }),
  });
  const c = service.coordinator;
  const events = {
    'study:uploading': record(c, 'study:uploading'),
    'study:uploaded': record(c, 'study:uploaded'),
    'study:skipped': record(c, 'study:skipped'),
    'study:changed': record(c, 'study:changed'),
    'study:review': record(c, 'study:review'),
    'study:held': record(c, 'study:held'),
    'study:failed': record(c, 'study:failed'),
    'study:warning': record(c, 'study:warning'),
    'study:unclaimable': record(c, 'study:unclaimable'),
  } as Agent['events'];
  await service.start();
  return { service, events };
}

async function examCount(): Promise<number> {
  const res = await api(emulator.info, emulator.info.keys.pro, 'GET', '/exams?limit=100');
  return res.json['total'] as number;
}

describe('WatchService', () => {
  it('two agents on one folder upload a study once; restarts and later changes upload nothing more', async () => {
    const watched = join(scratch, 'share');
    await mkdir(watched);
    const staging = join(scratch, 'staging');
    const series = await smallSeries(staging, 6);
    const before = await examCount();
    const a = await agent('ws-a', watched);
    const b = await agent('ws-b', watched);
    const dest = join(watched, 'CBCT_0001');
    await mkdir(dest);
    for (const f of series.files.slice(0, 5)) await copyFile(f.path, join(dest, `${f.sopInstanceUid}.dcm`));

    const uploaded = () => [...a.events['study:uploaded'], ...b.events['study:uploaded']];
    const skipped = () => [...a.events['study:skipped'], ...b.events['study:skipped']];
    await waitFor(() => uploaded().length === 1 && skipped().length === 1, 20_000, 'one upload and one skip');
    await sleep(500);
    expect(uploaded()).toHaveLength(1);
    const done = (uploaded()[0] as { value: CoordinatorEvents['study:uploaded'][0] }).value;
    expect(done).toMatchObject({ files: 5, study: { study_uid: series.studyUid } });
    expect(skipped().map((s) => [s.value.reason, s.value.exam_id])).toEqual([['uploaded_elsewhere', done.exam_id]]);
    expect([...a.events['study:failed'], ...b.events['study:failed']]).toEqual([]);
    expect(await examCount()).toBe(before + 1);
    const exam = await api(emulator.info, emulator.info.keys.pro, 'GET', `/exams/${done.exam_id}`);
    expect(exam.json).toMatchObject({ status: 'ready', exam_type: 'cbct', patient_id: 'T-1' });
    await Promise.all([a.service.close(), b.service.close()]);

    // Restart both; the done marker goes away too, so only the ledgers can stop a second upload.
    for (const name of await readdir(dest)) if (name.startsWith('.scanbridge-')) await unlink(join(dest, name));
    const a2 = await agent('ws-a', watched);
    const b2 = await agent('ws-b', watched);
    await waitFor(() => a2.events['study:skipped'].length === 1 && b2.events['study:skipped'].length === 1, 10_000, 'both to skip after restart');
    expect([...a2.events['study:skipped'], ...b2.events['study:skipped']].map((s) => s.value.reason)).toEqual(['already_uploaded', 'already_uploaded']);

    // A slice arriving after the upload: reported as changed, not uploaded again.
    const late = series.files[5] as { path: string; sopInstanceUid: string };
    await copyFile(late.path, join(dest, `${late.sopInstanceUid}.dcm`));
    await waitFor(() => a2.events['study:changed'].length === 1 && b2.events['study:changed'].length === 1, 10_000, 'the change to be reported');
    expect(a2.events['study:changed'][0]?.value).toMatchObject({ exam_id: done.exam_id, study: { files: 6 } });
    expect([...a2.events['study:uploading'], ...b2.events['study:uploading']]).toEqual([]);
    await Promise.all([a2.service.close(), b2.service.close()]);
    expect(await examCount()).toBe(before + 1);
  });

  it('in review mode offers the study instead of uploading it', async () => {
    const watched = join(scratch, 'review');
    await smallSeries(join(watched, 'PANO'), 1);
    const dataDir = join(scratch, 'ws-review');
    const client = createApiClient({ baseUrl: emulator.info.base_url, apiKey: emulator.info.keys.pro });
    const service = new WatchService({
      folders: [folderConfig(watched, { settle_seconds: 0.3, mode: 'review', exam_type: 'atm' })],
      ledger: await Ledger.open(join(dataDir, 'ledger.jsonl')),
      claims: { agentId: 'review' },
      upload: engineUploader({ port: examsPortFromClient(client), dataDir, fields: (s, exam_type) => ({ name: 'x', exam_type }) }),
    });
    const review = record<CoordinatorEvents['study:review'][0]>(service.coordinator, 'study:review');
    const uploading = record(service.coordinator, 'study:uploading');
    await service.start();
    try {
      await waitFor(() => review.length === 1, 8000, 'the study to be offered');
      expect(review[0]?.value).toMatchObject({ exam_type: 'atm', study: { files: 1 } });
      expect(uploading).toEqual([]);
    } finally {
      await service.close();
    }
  });
});
