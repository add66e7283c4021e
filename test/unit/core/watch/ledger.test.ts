import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scanFolder } from '@main/core/dicom';
import { Ledger, ledgerKey } from '@main/core/watch';
import { smallSeries, tempDir } from '@support/harness/watch-harness';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function scratch(): string {
  const t = tempDir('sb-ledger-');
  cleanups.push(t.cleanup);
  return t.dir;
}

describe('Ledger', () => {
  it('remembers an uploaded study across a restart, keyed by UID and file set', async () => {
    const dir = scratch();
    await smallSeries(join(dir, 'export'), 3);
    const [study] = (await scanFolder(join(dir, 'export'), { workers: false })).studies;
    if (!study) throw new Error('no study');
    const file = join(dir, 'data', 'watch', 'uploaded-studies.jsonl');
    const first = await Ledger.open(file);
    expect(await first.has(study)).toBe(false);
    await first.record(study, 'exm_1');
    expect(await first.has(study)).toBe(true);

    const reopened = await Ledger.open(file);
    expect(await reopened.status(study)).toEqual({ kind: 'uploaded', exam_id: 'exm_1' });
    const [entry] = await reopened.entries();
    expect(entry).toMatchObject({
      study_uid: study.study_uid,
      fingerprint: ledgerKey(study).fingerprint,
      exam_id: 'exm_1',
      files: 3,
      source: 'uploaded',
    });
    // No patient data in the ledger.
    expect(await readFile(file, 'utf8')).not.toMatch(/PRUEBA|T-1/);
  });

  it('reports a known study whose files differ as changed, not as uploaded', async () => {
    const dir = scratch();
    const s = await smallSeries(join(dir, 'export'), 2);
    const ledger = await Ledger.open(join(dir, 'ledger.jsonl'));
    const [before] = (await scanFolder(join(dir, 'export'), { workers: false })).studies;
    await ledger.record(before as NonNullable<typeof before>, 'exm_1');
    await smallSeries(join(dir, 'export', 'late'), 1, { studyUid: s.studyUid });
    const [after] = (await scanFolder(join(dir, 'export'), { workers: false })).studies;
    if (!after || !before) throw new Error('no study');
    expect(after.study_uid).toBe(before.study_uid);
    expect(await ledger.status(after)).toEqual({
      kind: 'changed',
      exam_id: 'exm_1',
      previous_fingerprint: ledgerKey(before).fingerprint,
    });
    expect(await ledger.has(after)).toBe(false);
  });

  it('sees what another process appended and survives a line torn by a crash', async () => {
    const dir = scratch();
    const file = join(dir, 'ledger.jsonl');
    const a = await Ledger.open(file);
    const b = await Ledger.open(file);
    await a.record({ study_uid: '1.2.3', fingerprint: 'f1' }, 'exm_a');
    expect(await b.status({ study_uid: '1.2.3', fingerprint: 'f1' })).toEqual({ kind: 'uploaded', exam_id: 'exm_a' });
    // A crash in the middle of an append leaves half a line.
    await appendFile(file, '{"v":1,"study_uid":"9.9');
    const c = await Ledger.open(file);
    await c.record({ study_uid: '4.5.6', fingerprint: 'f2' }, 'exm_c');
    const d = await Ledger.open(file);
    expect(await d.has({ study_uid: '4.5.6', fingerprint: 'f2' })).toBe(true);
    expect(await d.has({ study_uid: '1.2.3', fingerprint: 'f1' })).toBe(true);
    expect((await d.entries()).map((e) => e.exam_id)).toEqual(['exm_a', 'exm_c']);
  });

  it('ignores lines that are not ledger entries', async () => {
    const dir = scratch();
    const file = join(dir, 'ledger.jsonl');
    await writeFile(file, 'garbage\n{"v":2,"study_uid":"x"}\n\n');
    const ledger = await Ledger.open(file);
    expect(await ledger.entries()).toEqual([]);
    expect(await ledger.status({ study_uid: 'x', fingerprint: 'y' })).toEqual({ kind: 'new' });
  });
});
