import { describe, expect, it } from 'vitest';
import { preferNewer, upsertById } from '../../../../renderer/src/app/merge';

describe('upsertById', () => {
  it('replaces changed items in place and appends new ones in push order', () => {
    const list = [{ id: 'a', v: 1 }, { id: 'b', v: 1 }];
    expect(upsertById(list, [{ id: 'c', v: 1 }, { id: 'a', v: 2 }, { id: 'd', v: 1 }])).toEqual([
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
