/** A minimal method + path router with `:param` segments. */
export type Params = Record<string, string>;

type Entry<H> = { method: string; parts: string[]; handler: H; meta: RouteMeta };
export type RouteMeta = { scope: string | null };

export type Match<H> =
  { handler: H; params: Params; meta: RouteMeta } | { methodNotAllowed: true; allowed: string[] } | undefined;

export class Router<H> {
  private readonly entries: Entry<H>[] = [];

  add(method: string, path: string, meta: RouteMeta, handler: H): void {
    this.entries.push({ method, parts: split(path), handler, meta });
  }

  /** Every registered method + path pattern (for coverage checks). */
  routes(): { method: string; path: string; scope: string | null }[] {
    return this.entries.map((e) => ({ method: e.method, path: `/${e.parts.join('/')}`, scope: e.meta.scope }));
  }

  match(method: string, path: string): Match<H> {
    const parts = split(path);
    const allowed: string[] = [];
    for (const e of this.entries) {
      const params = matchParts(e.parts, parts);
      if (!params) continue;
      if (e.method === method) return { handler: e.handler, params, meta: e.meta };
      allowed.push(e.method);
    }
    return allowed.length ? { methodNotAllowed: true, allowed } : undefined;
  }
}

function split(path: string): string[] {
  return path.split('/').filter((p) => p.length > 0);
}

function matchParts(pattern: string[], parts: string[]): Params | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Params = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as string;
    const v = parts[i] as string;
    if (p.startsWith(':')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(v);
      } catch {
        return undefined;
      }
      params[p.slice(1)] = decoded;
    } else if (p !== v) {
      return undefined;
    }
  }
  return params;
}
