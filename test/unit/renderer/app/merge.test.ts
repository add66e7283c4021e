import { describe, expect, it } from 'vitest';
import { preferNewer, readKeepingNewer, upsertById, upsertNewer } from '@renderer/src/app/merge';

describe('upsertById', () => {
  it('replaces changed items in place and appends new ones in push order', () => {
    const list = [
      { id: 'a', v: 1 },
      { id: 'b', v: 1 },
    ];
    expect(
      upsertById(list, [
        { id: 'c', v: 1 },
        { id: 'a', v: 2 },
        { id: 'd', v: 1 },
      ]),
    ).toEqual([
      { id: 'a', v: 2 },
      { id: 'b', v: 1 },
      { id: 'c', v: 1 },
      { id: 'd', v: 1 },
    ]);
  });

  it('starts a list from the pushed items when nothing is cached yet', () => {
    expect(upsertById(undefined, [{ id: 'a' }])).toEqual([{ id: 'a' }]);
  });

  it('does not change the cached list it was given', () => {
    const list = [{ id: 'a', v: 1 }];
    upsertById(list, [{ id: 'a', v: 2 }]);
    expect(list).toEqual([{ id: 'a', v: 1 }]);
  });
});

describe('preferNewer', () => {
  const job = (id: string, updated_at: string, viewer: string | null = null) => ({ id, updated_at, viewer });

  it('keeps a pushed state newer than the list that was read before it', () => {
    const cached = [job('a', '2026-03-02T10:00:02.000Z', 'https://viewer/a')];
    const fresh = [job('a', '2026-03-02T10:00:01.000Z')];
    expect(preferNewer(cached, fresh)).toEqual(cached);
  });

  it('takes the read state when it is as new or newer, and drops jobs the read no longer has', () => {
    const cached = [job('a', '2026-03-02T10:00:01.000Z'), job('gone', '2026-03-02T10:00:09.000Z')];
    const fresh = [job('a', '2026-03-02T10:00:01.000Z', 'x'), job('b', '2026-03-02T10:00:00.000Z')];
    expect(preferNewer(cached, fresh)).toEqual(fresh);
    expect(preferNewer(undefined, fresh)).toEqual(fresh);
  });
});

describe('upsertNewer', () => {
  const job = (id: string, updated_at: string, phase: string) => ({ id, updated_at, phase });

  it("keeps a cached job newer than a control's answer that was computed before a push", () => {
    const cached = [job('a', '2026-03-02T10:00:02.000Z', 'ready'), job('b', '2026-03-02T10:00:00.000Z', 'queued')];
    const answer = [
      job('a', '2026-03-02T10:00:01.000Z', 'uploading'),
      job('b', '2026-03-02T10:00:03.000Z', 'paused'),
      job('c', '2026-03-02T10:00:00.000Z', 'queued'),
    ];
    expect(upsertNewer(cached, answer)).toEqual([cached[0], answer[1], answer[2]]);
    expect(upsertNewer(undefined, answer)).toEqual(answer);
  });
});

describe('readKeepingNewer', () => {
  it('keeps a state pushed while the read was on its way (the read answered from before the push)', async () => {
    const job = (phase: string, updated_at: string) => ({ id: 'a', phase, updated_at });
    let cache = [job('uploading', '2026-03-02T10:00:00.000Z')];
    const read = async (): Promise<ReturnType<typeof job>[]> => {
      const answer = [job('confirming', '2026-03-02T10:00:01.000Z')]; // main's state when it answered
      await Promise.resolve();
      cache = [job('ready', '2026-03-02T10:00:02.000Z')]; // the push of the next state lands first
      await Promise.resolve();
      return answer;
    };
    expect(await readKeepingNewer(read, () => cache)).toEqual([job('ready', '2026-03-02T10:00:02.000Z')]);
  });

  it('takes the read when nothing newer was pushed', async () => {
    const fresh = [{ id: 'a', updated_at: '2026-03-02T10:00:01.000Z' }];
    expect(
      await readKeepingNewer(
        async () => fresh,
        () => [{ id: 'a', updated_at: '2026-03-02T10:00:00.000Z' }],
      ),
    ).toEqual(fresh);
  });
});
