// The watch service on its own (no upload): two workstations on one share, real DCMTK files. The
// router claims the study for one of them, holds it for the other until the done marker appears,
// and never waits on anything: uploading is the agent's (test/integration/agent/pipeline.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { copyFile, mkdir, readdir, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger, WatchService } from '@main/core/watch';
import type { DetectedStudy, StudyRouterEvents } from '@main/core/watch';
import { folderConfig, record, sleep, smallSeries, waitFor } from '@support/harness/watch-harness';

let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'sb-watch-svc-'));
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

type Events = { [K in keyof StudyRouterEvents]: { value: StudyRouterEvents[K][0] }[] };
type Station = { service: WatchService; ledger: Ledger; events: Events };

async function station(name: string, watched: string): Promise<Station> {
  const ledger = await Ledger.open(join(scratch, name, 'uploaded-studies.jsonl'));
  const service = new WatchService({
    folders: [folderConfig(watched, { settle_seconds: 0.5 })],
    ledger,
    claims: { agentId: name },
    heldRetryMs: 200,
  });
  const r = service.router;
  const events = {
    'study:detected': record(r, 'study:detected'),
    'study:skipped': record(r, 'study:skipped'),
    'study:held': record(r, 'study:held'),
    'study:failed': record(r, 'study:failed'),
    'study:unclaimable': record(r, 'study:unclaimable'),
  } as Events;
  await service.start();
  return { service, ledger, events };
}

describe('WatchService', () => {
  it('on one share claims a study for one station, holds it for the other until the done marker, and reports later changes for review', async () => {
    const watched = join(scratch, 'share');
    await mkdir(watched);
    const series = await smallSeries(join(scratch, 'staging'), 6);
    const a = await station('ws-a', watched);
    const b = await station('ws-b', watched);
    const dest = join(watched, 'CBCT_0001');
    await mkdir(dest);
    for (const f of series.files.slice(0, 5)) await copyFile(f.path, join(dest, `${f.sopInstanceUid}.dcm`));

    const detected = (): DetectedStudy[] =>
      [...a.events['study:detected'], ...b.events['study:detected']].map((e) => e.value);
    await waitFor(
      () => detected().length === 1 && a.events['study:held'].length + b.events['study:held'].length === 1,
      10_000,
      'one claim and one hold',
    );
    const won = detected()[0] as DetectedStudy;
    expect(won).toMatchObject({
      action: 'auto',
      exam_type: 'cbct',
      changedFrom: null,
      study: { study_uid: series.studyUid, files: 5 },
    });
    expect(won.claim).not.toBeNull();
    // The other station keeps looking while the claim is alive, and does nothing else.
    await sleep(600);
    expect(detected()).toHaveLength(1);

    // The winner's upload ends (the agent's exam recorder does this): the other one skips it.
    await won.claim?.complete('ex_test_1', 5, won.study.bytes);
    const loser = a.events['study:detected'].length === 1 ? b : a;
    await waitFor(() => loser.events['study:skipped'].length === 1, 5000, 'the other station to skip it');
    expect(loser.events['study:skipped'][0]?.value).toMatchObject({
      reason: 'uploaded_elsewhere',
      exam_id: 'ex_test_1',
    });
    expect(await loser.ledger.status({ study_uid: series.studyUid, fingerprint: won.key.fingerprint })).toMatchObject({
      kind: 'uploaded',
      exam_id: 'ex_test_1',
    });
    await Promise.all([a.service.close(), b.service.close()]);

    // After a restart, without the share's markers, the ledger alone stops the station that has it.
    for (const name of await readdir(dest)) if (name.startsWith('.scanbridge-')) await unlink(join(dest, name));
    const l2 = await station(loser === a ? 'ws-a' : 'ws-b', watched);
    await waitFor(() => l2.events['study:skipped'].length === 1, 5000, 'the restart to skip');
    expect(l2.events['study:skipped'][0]?.value.reason).toBe('already_uploaded');

    // A slice arriving after the upload: offered for review as changed, never claimed for upload.
    const late = series.files[5] as { path: string; sopInstanceUid: string };
    await copyFile(late.path, join(dest, `${late.sopInstanceUid}.dcm`));
    await waitFor(() => l2.events['study:detected'].length === 1, 10_000, 'the change to be reported');
    expect(l2.events['study:detected'][0]?.value).toMatchObject({
      action: 'review',
      changedFrom: 'ex_test_1',
      claim: null,
      study: { files: 6 },
    });
    await l2.service.close();
  });

  it('in review mode offers the study instead of claiming it', async () => {
    const watched = join(scratch, 'review');
    await smallSeries(join(watched, 'PANO'), 1);
    const service = new WatchService({
      folders: [folderConfig(watched, { settle_seconds: 0.3, mode: 'review', exam_type: 'atm' })],
      ledger: await Ledger.open(join(scratch, 'ws-review', 'ledger.jsonl')),
      claims: { agentId: 'review' },
    });
    const detected = record<DetectedStudy>(service.router, 'study:detected');
    await service.start();
    try {
      await waitFor(() => detected.length === 1, 8000, 'the study to be offered');
      expect(detected[0]?.value).toMatchObject({
        action: 'review',
        claim: null,
        exam_type: 'atm',
        study: { files: 1 },
      });
      expect(await readdir(join(watched, 'PANO'))).not.toContainEqual(expect.stringMatching(/^\.scanbridge-claim/));
    } finally {
      await service.close();
    }
  });
});
