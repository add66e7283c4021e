/** Replaces items with the same id and appends new ones, keeping the list's order (cache updates from pushed events). */
export function upsertById<T extends { id: string }>(list: readonly T[] | undefined, changed: readonly T[]): T[] {
  if (!list) return [...changed];
  const byId = new Map(changed.map((c) => [c.id, c]));
  const out = list.map((item) => {
    const next = byId.get(item.id);
    if (next) byId.delete(item.id);
    return next ?? item;
  });
  for (const c of changed) if (byId.has(c.id)) out.push(c);
  return out;
}

type Versioned = { id: string; updated_at: string };

/**
 * A freshly read list, keeping any cached item that a pushed event made newer than what the read
 * returned (a read that started before a push may arrive after it). Items missing from the read are gone.
 */
export function preferNewer<T extends Versioned>(cached: readonly T[] | undefined, fresh: readonly T[]): T[] {
  if (!cached) return [...fresh];
  const byId = new Map(cached.map((c) => [c.id, c]));
  return fresh.map((f) => {
    const c = byId.get(f.id);
    return c && c.updated_at > f.updated_at ? c : f;
  });
}

/**
 * Upserts items (a control's answer, a push), keeping any cached item already newer than the one
 * given: an answer computed before a push may arrive after it.
 */
export function upsertNewer<T extends Versioned>(list: readonly T[] | undefined, changed: readonly T[]): T[] {
  const cached = new Map((list ?? []).map((c) => [c.id, c]));
  return upsertById(
    list,
    changed.filter((c) => {
      const have = cached.get(c.id);
      return !have || c.updated_at >= have.updated_at;
    }),
  );
}

/**
 * Reads a list, then merges it with the cache as it is when the read answers (not as it was when
 * the read started): a push that arrived while the read was on its way is kept when newer.
 */
export async function readKeepingNewer<T extends Versioned>(
  read: () => Promise<readonly T[]>,
  cached: () => readonly T[] | undefined,
): Promise<T[]> {
  const fresh = await read();
  return preferNewer(cached(), fresh);
}
