import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Reads the rows of API-v1.md that test/emulator/SPEC-COVERAGE.md must map to tests: every table row,
 * each numbered item and bullet of §5, the numbered rules of §6.4 and the root fields of §6.2.
 */

/** The spec lives next to the repository: `<repo>/../shared/API-v1.md`. */
export const SPEC_PATH = fileURLToPath(new URL('../../../shared/API-v1.md', import.meta.url));

/** One row of the spec: the section it belongs to ("4.2", "5", "8.1") and the text that identifies it. */
export type SpecRow = {
  section: string;
  key: string;
  kind: 'table' | 'item' | 'field';
  cells: string[];
  header: string[];
};

/** Reads API-v1.md, failing with a clear message when the shared folder is not next to the repository. */
export function readSpec(path = SPEC_PATH): string {
  if (!existsSync(path))
    throw new Error(`API-v1.md not found at ${path} (expected the shared/ folder next to the repository)`);
  return readFileSync(path, 'utf8');
}

/** Splits a Markdown table line into trimmed cells; `\|` is a pipe inside a cell. */
export function tableCells(line: string): string[] {
  const inner = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return inner.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

const isSeparator = (line: string): boolean => /^\|\s*:?-{3,}/.test(line.trim());

/**
 * Which columns identify a row: Method + Path for endpoints, State + Trigger for transitions, the
 * first column where it names the row (Field, Type, Header, Parameter), every column of the error
 * table and of two-column tables. A table of another shape is an error, so that a new kind of table
 * in the spec is noticed rather than skipped.
 */
function keyColumns(header: string[], section: string): number[] {
  const at = (name: string): number => header.indexOf(name);
  if (at('Method') >= 0 && at('Path') >= 0) return [at('Method'), at('Path')];
  if (at('State') >= 0 && at('Trigger') >= 0) return [at('State'), at('Trigger')];
  if (['Field', 'Type', 'Header', 'Parameter'].includes(header[0] ?? '')) return [0];
  if (header[0] === 'Status' || header.length === 2) return header.map((_, i) => i);
  throw new Error(`API-v1.md §${section}: table with columns ${header.join(', ')} has no known identifying column`);
}

/** The key of a table row: its identifying cells, empty ones left out, joined with " | ". */
export function rowKey(cells: string[], columns: number[]): string {
  return columns
    .map((i) => cells[i] ?? '')
    .filter((c) => c !== '')
    .join(' | ');
}

/** The first sentence of a list item (up to the first full stop followed by a space or the end). */
function firstSentence(text: string): string {
  const m = /^(.*?\.)(?=\s|$)/.exec(text);
  return m?.[1] ?? text;
}

/** Splits "a (x, y), b (z)" at commas outside parentheses. */
function topLevelList(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else {
      cur += ch;
    }
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** Every row of API-v1.md that the coverage map must list, in document order. */
export function specRows(markdown: string): SpecRow[] {
  const rows: SpecRow[] = [];
  const lines = markdown.split(/\r?\n/);
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const h2 = /^##\s+(\d+)\.\s/.exec(line);
    const h3 = /^###\s+(\d+\.\d+)\s/.exec(line);
    if (h2?.[1]) section = h2[1];
    if (h3?.[1]) section = h3[1];
    if (h2 || h3) continue;

    if (line.trim().startsWith('|') && isSeparator(lines[i + 1] ?? '')) {
      const header = tableCells(line);
      const columns = keyColumns(header, section);
      i += 2;
      for (; i < lines.length && (lines[i] ?? '').trim().startsWith('|'); i++) {
        const cells = tableCells(lines[i] ?? '');
        rows.push({ section, key: rowKey(cells, columns), kind: 'table', cells, header });
      }
      i--;
      continue;
    }
    if (section === '5' || section === '6.4') {
      const item = /^(\d+)\.\s+(.*)$/.exec(line);
      if (item?.[1] && item[2])
        rows.push({
          section,
          key: `${item[1]}. ${firstSentence(item[2].trim())}`,
          kind: 'item',
          cells: [item[2].trim()],
          header: [],
        });
      const bullet = /^\s+-\s+(.*)$/.exec(line);
      if (section === '5' && bullet?.[1])
        rows.push({ section, key: bullet[1].trim(), kind: 'item', cells: [bullet[1].trim()], header: [] });
    }
    if (section === '6.2') {
      const root = /Root fields:\s*(.*?)\.(?:\s|$)/.exec(line);
      if (root?.[1])
        for (const f of topLevelList(root[1])) rows.push({ section, key: f, kind: 'field', cells: [f], header: [] });
      const data = /(Data of [^:]+:[^.]*\.)/.exec(line);
      if (data?.[1]) rows.push({ section, key: data[1], kind: 'field', cells: [data[1]], header: [] });
    }
  }
  return rows;
}

/** The §4 endpoints of the spec with the scope their table states ('' when the table has no Scope column). */
export function specEndpoints(markdown: string): { method: string; path: string; scope: string; section: string }[] {
  return specRows(markdown)
    .filter((r) => r.kind === 'table' && r.section.startsWith('4.') && r.header.includes('Method'))
    .map((r) => {
      const col = (name: string): string => r.cells[r.header.indexOf(name)] ?? '';
      return {
        method: col('Method'),
        path: col('Path'),
        scope: r.header.includes('Scope') ? col('Scope') : '',
        section: r.section,
      };
    });
}
