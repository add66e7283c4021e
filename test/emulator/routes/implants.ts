import type { App } from '../core/app';
import { badRequest } from '../core/http';
import { queryInt } from '../core/validate';
import { IMPLANT_CATALOG, type ImplantEntry } from '../data/implant-catalog';

/** §8.2: near matches lie within 0.5 mm either way (inclusive). */
const NEAR_MM = 0.5;
/** Catalog sizes have at most two decimals; this absorbs binary floating-point noise. */
const EPS = 1e-6;

/** Lower-cased, accents removed, runs of non-alphanumerics collapsed to one space. */
const fold = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, ' ')
    .trim();

const haystacks = new Map<string, string>(IMPLANT_CATALOG.map((e) => [e.id, fold(`${e.brand} ${e.product_line}`)]));

/** A positive size in millimetres from the query; absent → undefined; anything else → 400. */
function querySize(q: URLSearchParams, name: 'length' | 'diameter'): number | undefined {
  const raw = q.get(name);
  if (raw === null) return undefined;
  const n = /^\s*\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isFinite(n) || n <= 0 || n > 100) {
    throw badRequest(`${name} must be a positive number of millimetres`, [
      { field: name, message: 'expected a number in millimetres, e.g. 10 or 4.1' },
    ]);
  }
  return n;
}

const view = (e: ImplantEntry): ImplantEntry => ({ ...e });

/** The global read-only implant catalog (API-v1.md §2.11, §4.8); sandbox keys see the same data. */
export function register(app: App): void {
  app.api.add('GET', '/implants', { scope: 'exams:read' }, ({ query }) => {
    const limit = queryInt(query, 'limit', 100, 1, 500);
    const offset = queryInt(query, 'offset', 0, 0, 1_000_000);
    const length = querySize(query, 'length');
    const diameter = querySize(query, 'diameter');
    const brandParam = query.get('brand');
    const searchParam = query.get('search');
    if (brandParam !== null && brandParam.trim() === '')
      throw badRequest('brand must not be empty', [{ field: 'brand', message: 'expected a brand name' }]);
    if (searchParam !== null && fold(searchParam) === '')
      throw badRequest('search must contain a word', [
        { field: 'search', message: 'expected at least one letter or digit' },
      ]);

    // brand and search narrow each other and the size lookup; the most specific query decides the shape.
    let pool = IMPLANT_CATALOG;
    const brand = brandParam?.trim();
    if (brand !== undefined) pool = pool.filter((e) => e.brand.toLowerCase() === brand.toLowerCase());
    if (searchParam !== null) {
      const words = fold(searchParam).split(' ');
      pool = pool.filter((e) => {
        const hay = haystacks.get(e.id) ?? '';
        return words.every((w) => hay.includes(w));
      });
    }

    if (length !== undefined || diameter !== undefined) {
      const dist = (e: ImplantEntry): { dl: number; dd: number } => ({
        dl: length === undefined ? 0 : Math.abs(e.length - length),
        dd: diameter === undefined ? 0 : Math.abs(e.diameter - diameter),
      });
      const exact: ImplantEntry[] = [];
      const near: { e: ImplantEntry; score: number }[] = [];
      for (const e of pool) {
        const { dl, dd } = dist(e);
        if (dl < EPS && dd < EPS) exact.push(e);
        else if (dl <= NEAR_MM + EPS && dd <= NEAR_MM + EPS) near.push({ e, score: dl + dd });
      }
      near.sort((a, b) => a.score - b.score);
      return {
        body: {
          implants: exact.slice(offset, offset + limit).map(view),
          near_matches: near.slice(0, limit).map((n) => view(n.e)),
          total: exact.length,
          near_total: near.length,
          limit,
          offset,
        },
      };
    }
    if (searchParam !== null) {
      return { body: { implants: pool.slice(offset, offset + limit).map(view), total: pool.length, limit, offset } };
    }
    if (brand !== undefined) {
      const canonical = pool[0]?.brand ?? brand;
      return {
        body: {
          brand: canonical,
          implants: pool.slice(offset, offset + limit).map(view),
          total: pool.length,
          limit,
          offset,
        },
      };
    }
    const counts = new Map<string, number>();
    for (const e of IMPLANT_CATALOG) counts.set(e.brand, (counts.get(e.brand) ?? 0) + 1);
    const brands = [...counts]
      .map(([b, count]) => ({ brand: b, count }))
      .sort((a, b) => a.brand.localeCompare(b.brand));
    return { body: { brands } };
  });
}
