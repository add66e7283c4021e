import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSpec, SPEC_PATH, specRows, tableCells, type SpecRow } from '../../support/spec-tables';

/**
 * Guard of test/emulator/SPEC-COVERAGE.md: every row of API-v1.md (tables, §5 items and bullets,
 * §6.2 root fields, §6.4 rules) must appear in the map under its section with at least one test,
 * and every `file › test name` the map cites must be a test of that file with exactly that title.
 */

const TESTS_DIR = fileURLToPath(new URL('.', import.meta.url));
const MAP_PATH = fileURLToPath(new URL('../SPEC-COVERAGE.md', import.meta.url));

type MapRow = { section: string | null; key: string; refs: { file: string; name: string }[]; line: number };

const REF = /`([a-z0-9-]+\.test\.ts) › ([^`]+)`/g;

/** Rows of the coverage map's tables, each with the § section of the heading above it (null outside one). */
function mapRows(markdown: string): MapRow[] {
  const rows: MapRow[] = [];
  const lines = markdown.split(/\r?\n/);
  let section: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      section = /^§(\d+(?:\.\d+)?)\s/.exec(heading[1] ?? '')?.[1] ?? null;
      continue;
    }
    if (!line.trim().startsWith('|') || !/^\|\s*:?-{3,}/.test((lines[i + 1] ?? '').trim())) continue;
    for (i += 2; i < lines.length && (lines[i] ?? '').trim().startsWith('|'); i++) {
      const row = lines[i] ?? '';
      const first = tableCells(row)[0] ?? '';
      const key = /^`(.*)`$/.exec(first)?.[1] ?? first;
      const refs = [...row.matchAll(REF)].map((m) => ({ file: m[1] ?? '', name: m[2] ?? '' }));
      rows.push({ section, key, refs, line: i + 1 });
    }
    i--;
  }
  return rows;
}

/** Titles of the `it(...)` / `test(...)` calls of a test file (it.each templates included, skipped ones not). */
function testTitles(source: string): Set<string> {
  const titles = new Set<string>();
  const call =
    /\b(?:it|test)(?:\.(?:each|concurrent|sequential)(?:\([^)]*\))?)?\s*\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
  for (const m of source.matchAll(call)) titles.add((m[2] ?? '').replace(/\\(.)/g, '$1'));
  return titles;
}

const label = (r: SpecRow): string => `§${r.section} ${r.key}`;

describe('SPEC-COVERAGE.md covers every row of API-v1.md', () => {
  const spec = specRows(readSpec());
  const mapText = readFileSync(MAP_PATH, 'utf8');
  const map = mapRows(mapText);

  it('reads API-v1.md from the shared folder next to the repository: every table, §5 item, §6.2 field and §6.4 rule', () => {
    expect(existsSync(SPEC_PATH)).toBe(true);
    const sections = new Set(spec.map((r) => r.section));
    for (const s of [
      '2.1',
      '2.2',
      '2.8',
      '3.1',
      '3.2',
      '3.3',
      '3.5',
      '4.1',
      '4.2',
      '4.3',
      '4.4',
      '4.5',
      '4.6',
      '4.7',
      '4.8',
      '4.9',
      '4.10',
      '5',
      '6.1',
      '6.2',
      '6.3',
      '6.4',
      '7',
      '8.1',
      '8.2',
    ]) {
      expect(sections.has(s), `no rows read from §${s}`).toBe(true);
    }
    expect(spec.filter((r) => r.section === '5' && r.kind === 'item').length).toBeGreaterThanOrEqual(14);
    expect(spec.filter((r) => r.section === '6.4').length).toBe(4);
    const keys = spec.map(label);
    expect(new Set(keys).size, 'two rows of one section share a key').toBe(keys.length);
  });

  it('maps each row, under its own § heading, to at least one test', () => {
    const missing = spec
      .filter((r) => !map.some((m) => m.section === r.section && m.key === r.key && m.refs.length > 0))
      .map(label);
    expect(missing, 'rows of API-v1.md with no test in SPEC-COVERAGE.md').toEqual([]);
  });

  it('lists no row that API-v1.md does not have, and none twice', () => {
    const specKeys = new Set(spec.map(label));
    const mapped = map.filter((m) => m.section !== null).map((m) => `§${m.section ?? ''} ${m.key}`);
    expect(
      mapped.filter((k) => !specKeys.has(k)),
      'rows under a § heading that API-v1.md does not have (stale or misspelt)',
    ).toEqual([]);
    expect(
      mapped.filter((k, i) => mapped.indexOf(k) !== i),
      'rows listed twice',
    ).toEqual([]);
  });

  it('names only tests that exist, with their exact titles', () => {
    const titles = new Map<string, Set<string> | null>();
    const problems: string[] = [];
    let count = 0;
    mapText.split(/\r?\n/).forEach((text, i) => {
      for (const [, file = '', name = ''] of text.matchAll(REF)) {
        count++;
        if (!titles.has(file)) {
          const path = join(TESTS_DIR, file);
          titles.set(file, existsSync(path) ? testTitles(readFileSync(path, 'utf8')) : null);
        }
        const inFile = titles.get(file);
        if (!inFile) problems.push(`line ${i + 1}: no file ${file}`);
        else if (!inFile.has(name)) problems.push(`line ${i + 1}: ${file} has no test titled "${name}"`);
      }
    });
    expect(count).toBeGreaterThan(spec.length);
    expect(problems).toEqual([]);
  });
});
