// Where things are in the repository, for tests that start its programs or read its files.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The repository's root folder (absolute, no trailing separator). */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url)).replace(/[\\/]$/, '');

/** The `scanbridge` command as installed by npm (its launcher runs the bundled CLI). */
export const cliBin = join(repoRoot, 'main', 'bin', 'scanbridge.mjs');
