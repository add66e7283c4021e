// The demo's sample patients carry Chilean RUTs that pass the check digit (the consent desk and the
// fields the app checks refuse a wrong one, and a demo must not show invalid data as normal).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateRut } from '@fdograph/rut-utilities';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@support/repo-paths';

const demoDir = join(repoRoot, 'main', 'demo');

describe("the demo's sample RUTs", () => {
  it('every RUT written in the demo passes the check digit', () => {
    const found: string[] = [];
    for (const name of readdirSync(demoDir).filter((n) => n.endsWith('.ts'))) {
      const text = readFileSync(join(demoDir, name), 'utf8');
      for (const m of text.matchAll(/'(\d{1,2}\.\d{3}\.\d{3}-[\dkK])'/g)) found.push(m[1] ?? '');
    }
    expect(found.length).toBeGreaterThanOrEqual(6);
    expect(found.filter((rut) => !validateRut(rut))).toEqual([]);
    expect(new Set(found).size).toBe(found.length);
  });
});
