// Where things are in the repository, for tests that start its programs or read its files.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The repository's root folder (absolute, no trailing separator). */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url)).replace(/[\\/]$/, '');

/** The `scanbridge` command as installed by npm (its launcher runs the bundled CLI). */
export const cliBin = join(repoRoot, 'main', 'bin', 'scanbridge.mjs');

/**
 * The Node options the launcher's first line gives (`#!/usr/bin/env -S node --max-semi-space-size=2`):
 * `node cliBin` alone would run the command with V8's defaults, not as `scanbridge` runs.
 */
export const cliNodeOptions: readonly string[] = (() => {
  const shebang = readFileSync(cliBin, 'utf8').split('\n', 1)[0] ?? '';
  const words = shebang.replace(/^#!/, '').trim().split(/\s+/);
  const node = words.indexOf('node');
  return node < 0 ? [] : words.slice(node + 1);
})();
