import { ApiError } from './api-errors';

/** One page of a limit/offset list. */
export type OffsetPage<T> = { items: T[]; total?: number | null };

/**
 * Iterates a limit/offset list page by page. Items already seen (by `key`) are skipped, because a
 * newest-first list shifts when items are added while it is being read.
 */
export async function* paginateOffset<T>(
  fetchPage: (limit: number, offset: number) => Promise<OffsetPage<T>>,
  pageSize: number,
  key: (item: T) => string,
  signal?: AbortSignal,
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  let offset = 0;
  for (;;) {
    if (signal?.aborted) throw new ApiError('aborted');
    const page = await fetchPage(pageSize, offset);
    for (const item of page.items) {
      const k = key(item);
      if (seen.has(k)) continue;
      seen.add(k);
      yield item;
    }
    offset += page.items.length;
    const total = page.total ?? undefined;
    if (page.items.length === 0) return;
    // With a total, a short page may just be a service-side cap on the page size; without one, it is the end.
    if (total !== undefined ? offset >= total : page.items.length < pageSize) return;
  }
}

/** One page of a cursor list. */
export type CursorPage<T> = { items: T[]; nextCursor?: string | null };

/** Iterates a cursor list (`next_cursor` fed back as `before`) until the cursor runs out. */
export async function* paginateCursor<T>(
  fetchPage: (cursor: string | undefined) => Promise<CursorPage<T>>,
  signal?: AbortSignal,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  const used = new Set<string>();
  for (;;) {
    if (signal?.aborted) throw new ApiError('aborted');
    const page = await fetchPage(cursor);
    yield* page.items;
    const next = page.nextCursor ?? undefined;
    // A cursor that repeats would loop forever: stop instead.
    if (next === undefined || page.items.length === 0 || used.has(next)) return;
    used.add(next);
    cursor = next;
  }
}
