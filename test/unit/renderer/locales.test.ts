// The window's texts: both languages say the same things (same keys, same placeholders), every key
// the code asks for exists, and every error code, warning and phase the core can send is translated.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, EXAM_TYPES, INBOX_STATUSES, RADIOGRAPH_SUBTYPES } from '@preload/contract';
import { flattenLocaleTree as flatten, loadLocaleTree, type LocaleTree as Tree } from '../../support/locales';
import { repoRoot } from '@support/repo-paths';

const root = repoRoot;

const load = (lang: string): Map<string, string> => flatten(loadLocaleTree(lang) as Tree);
const en = load('en');
const es = load('es');
const placeholders = (text: string): string[] => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1] as string).sort();
const has = (texts: Map<string, string>, key: string): boolean =>
  texts.has(key) || (texts.has(`${key}_one`) && texts.has(`${key}_other`));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The members of a string-literal union type `name` declared in `file`. */
function unionMembers(file: string, name: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const start = text.indexOf(`export type ${name} =`);
  expect(start, `${name} in ${file}`).toBeGreaterThanOrEqual(0);
  const body = text.slice(start, text.indexOf(';', start));
  return [...body.matchAll(/'([a-z_]+)'/g)].map((m) => m[1] as string);
}

describe('the locale files', () => {
  it('have the same keys in Spanish and English', () => {
    expect([...es.keys()].sort()).toEqual([...en.keys()].sort());
  });

  it('use the same placeholders in both languages', () => {
    const differing = [...en.keys()].filter(
      (k) => placeholders(en.get(k) ?? '').join() !== placeholders(es.get(k) ?? '').join(),
    );
    expect(differing).toEqual([]);
  });

  it('hold every key the window asks for', () => {
    const used = new Set<string>();
    for (const file of sourceFiles(join(root, 'renderer', 'src'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([A-Za-z0-9_.]+)'/g)) used.add(m[1] as string);
    }
    expect(used.size).toBeGreaterThan(100);
    expect([...used].filter((k) => !has(en, k) || !has(es, k))).toEqual([]);
  });

  it('translate every error code the service client, the upload engine and the core can report', () => {
    // One list, the one ContractFailure, ApiError and UploadError are typed with.
    const codes: string[] = [...ERROR_CODES];
    expect(codes.length).toBeGreaterThan(40);
    const missing = codes.filter(
      (c) =>
        !en.has(`errors.${c}.title`) ||
        !en.has(`errors.${c}.action`) ||
        !es.has(`errors.${c}.title`) ||
        !es.has(`errors.${c}.action`),
    );
    expect([...new Set(missing)]).toEqual([]);
  });

  it('translate every study warning, upload phase, exam type, radiograph subtype and inbox status of the contract', () => {
    const types = 'preload/contract/types.ts';
    const keys = [
      ...unionMembers(types, 'StudyWarning').map((w) => `warnings.${w}`),
      ...unionMembers(types, 'UploadPhase').map((p) => `uploads.phase.${p}`),
      ...EXAM_TYPES.map((x) => `examType.${x}`),
      ...RADIOGRAPH_SUBTYPES.map((x) => `exams.edit.subtypes.${x}`),
      ...INBOX_STATUSES.map((s) => `inbox.status.${s}`),
    ];
    expect(keys.length).toBeGreaterThan(30);
    expect(keys.filter((k) => !en.has(k) || !es.has(k))).toEqual([]);
  });

  it('are really translated: Spanish texts differ from English ones', () => {
    const same = [...en.keys()].filter((k) => en.get(k) === es.get(k) && (en.get(k) ?? '').split(' ').length > 2);
    expect(same).toEqual([]);
  });
});
