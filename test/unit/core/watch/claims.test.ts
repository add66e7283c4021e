import { spawnSync } from 'node:child_process';
import { readdir, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readDoneMarker, studyHash, tryClaim } from '@main/core/watch';
import type { ClaimOutcome } from '@main/core/watch';
import { tempDir, waitFor } from '@support/harness/watch-harness';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function exportDir(): string {
  const t = tempDir('sb-claims-');
  cleanups.push(t.cleanup);
  return t.dir;
}

const key = { study_uid: '1.2.826.0.1.3680043.2.1125.1', fingerprint: 'aaaa' };

function won(o: ClaimOutcome): Extract<ClaimOutcome, { kind: 'won' }> {
  if (o.kind !== 'won') throw new Error(`expected to win, got ${o.kind}`);
  cleanups.push(() => o.claim.release());
  return o;
}

const markers = async (dir: string): Promise<string[]> =>
  (await readdir(dir)).filter((n) => n.startsWith('.scanbridge-')).sort();

describe('share claims', () => {
  it('lets exactly one of several agents claim a study at the same time', async () => {
    const dir = exportDir();
    const outcomes = await Promise.all(['a', 'b', 'c', 'd'].map((agentId) => tryClaim(dir, key, { agentId })));
    expect(outcomes.filter((o) => o.kind === 'won')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'held')).toHaveLength(3);
    outcomes.forEach((o) => o.kind === 'won' && cleanups.push(() => o.claim.release()));
  });

  it('after a completed upload, other agents find the done marker with the exam id', async () => {
    const dir = exportDir();
    const { claim } = won(await tryClaim(dir, key, { agentId: 'a' }));
    await claim.complete('exm_1', 3, 1000);
    expect(await markers(dir)).toEqual([`.scanbridge-done-${studyHash(key.study_uid)}`]);
    expect(await tryClaim(dir, key, { agentId: 'b' })).toMatchObject({
      kind: 'done',
      same: true,
      marker: { exam_id: 'exm_1', fingerprint: 'aaaa', files: 3 },
    });
    expect(await tryClaim(dir, { ...key, fingerprint: 'bbbb' }, { agentId: 'b' })).toMatchObject({
      kind: 'done',
      same: false,
    });
    // Staff chose to upload the changed study again.
    const again = won(await tryClaim(dir, { ...key, fingerprint: 'bbbb' }, { agentId: 'b', force: true }));
    await again.claim.complete('exm_2', 4, 2000);
    expect(await readDoneMarker(dir, key.study_uid)).toMatchObject({ exam_id: 'exm_2', fingerprint: 'bbbb' });
  });

  it('a released claim can be taken at once', async () => {
    const dir = exportDir();
    const first = won(await tryClaim(dir, key, { agentId: 'a' }));
    expect(await tryClaim(dir, key, { agentId: 'b' })).toEqual({ kind: 'held', by: 'a' });
    await first.claim.release();
    won(await tryClaim(dir, key, { agentId: 'b' }));
  });

  it('takes over a claim whose heartbeat stopped, once, and the old owner learns it lost', async () => {
    const dir = exportDir();
    const old = won(await tryClaim(dir, key, { agentId: 'old', heartbeatMs: 1000 }));
    const [claimName] = await markers(dir);
    // As if the owner's share connection had been gone for ten minutes.
    const past = new Date(Date.now() - 10 * 60_000);
    await utimes(join(dir, claimName as string), past, past);
    const contenders = await Promise.all(
      ['b', 'c', 'd'].map((agentId) => tryClaim(dir, key, { agentId, staleAfterMs: 60_000 })),
    );
    expect(contenders.filter((o) => o.kind === 'won')).toHaveLength(1);
    contenders.forEach((o) => o.kind === 'won' && cleanups.push(() => o.claim.release()));
    await waitFor(() => old.claim.lost.aborted, 3000, 'the old owner to notice');
    expect(await markers(dir)).toEqual([`.scanbridge-claim-${studyHash(key.study_uid)}-2`]);
  });

  it('takes over at once a claim left by a process of this host that no longer runs', async () => {
    const dir = exportDir();
    const gone = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const content = {
      agent: 'crashed',
      host: hostname(),
      pid: gone,
      study_uid: key.study_uid,
      fingerprint: key.fingerprint,
      claimed_at: new Date().toISOString(),
    };
    await writeFile(join(dir, `.scanbridge-claim-${studyHash(key.study_uid)}-1`), JSON.stringify(content));
    won(await tryClaim(dir, key, { agentId: 'restarted' }));
  });
});
