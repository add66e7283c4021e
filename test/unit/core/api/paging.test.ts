import { describe, expect, it } from 'vitest';
import { paginateCursor, paginateOffset } from '@main/core/api/http/paging';

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('paginateOffset', () => {
  it('walks pages until the total is reached', async () => {
    const all = Array.from({ length: 7 }, (_, i) => `e${i}`);
    const calls: [number, number][] = [];
    const items = await collect(
      paginateOffset(
        async (limit, offset) => {
          calls.push([limit, offset]);
          return { items: all.slice(offset, offset + limit), total: all.length };
        },
        3,
        (s) => s,
      ),
    );
    expect(items).toEqual(all);
    expect(calls).toEqual([
      [3, 0],
      [3, 3],
      [3, 6],
    ]);
  });

  it('skips items that shift into the next page when a new one is added meanwhile', async () => {
    const list = ['e4', 'e3', 'e2', 'e1'];
    const items = await collect(
      paginateOffset(
        async (limit, offset) => {
          const page = list.slice(offset, offset + limit);
          if (offset === 0) list.unshift('e5');
          return { items: page, total: list.length };
        },
        2,
        (s) => s,
      ),
    );
    expect(items).toEqual(['e4', 'e3', 'e2', 'e1']);
  });

  it('stops on an empty page even without a total', async () => {
    const items = await collect(
      paginateOffset(
        async (_l, offset) => ({ items: offset === 0 ? ['a', 'b'] : [] }),
        2,
        (s) => s,
      ),
    );
    expect(items).toEqual(['a', 'b']);
  });

  it('stops when aborted', async () => {
    const c = new AbortController();
    const gen = paginateOffset(
      async () => ({ items: ['a', 'b'] }),
      2,
      (s) => `${s}${Math.random()}`,
      c.signal,
    );
    await gen.next();
    c.abort();
    await gen.next();
    await expect(gen.next()).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('paginateCursor', () => {
  it('feeds next_cursor back until it is null', async () => {
    const cursors: (string | undefined)[] = [];
    const pages: Record<string, { items: number[]; nextCursor: string | null }> = {
      start: { items: [5, 4], nextCursor: 'c4' },
      c4: { items: [3, 2], nextCursor: 'c2' },
      c2: { items: [1], nextCursor: null },
    };
    const items = await collect(
      paginateCursor(async (cursor) => {
        cursors.push(cursor);
        return pages[cursor ?? 'start'] ?? { items: [] };
      }),
    );
    expect(items).toEqual([5, 4, 3, 2, 1]);
    expect(cursors).toEqual([undefined, 'c4', 'c2']);
  });

  it('stops instead of looping when the service repeats a cursor', async () => {
    let calls = 0;
    const items = await collect(
      paginateCursor(async () => {
        calls += 1;
        return { items: [calls], nextCursor: 'same' };
      }),
    );
    expect(calls).toBe(2);
    expect(items).toEqual([1, 2]);
  });
});

describe('paginateOffset with a service that caps the page size', () => {
  it('keeps going while the total says more items exist', async () => {
    const all = Array.from({ length: 7 }, (_, i) => `e${i}`);
    const items = await collect(
      paginateOffset(
        async (_limit, offset) => ({ items: all.slice(offset, offset + 3), total: all.length }),
        5,
        (s) => s,
      ),
    );
    expect(items).toEqual(all);
  });
});
