// The emulator as one bundled file. Tests start hundreds of emulators; through tsx each start costs
// several times the CPU of a bundled start (its loader thread and esbuild compile every module). The
// test runners build it once before any test (vitest's global setup, Playwright's), and
// EmulatorProcess starts it. `npm run emulator` (CONTRACTS.md §1) still runs the sources through
// tsx, and start-and-auth.test.ts starts it exactly that way.
import { build } from 'esbuild';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../repo-paths';

/** Where the bundle is written (git-ignored). */
export const emulatorBundle = join(repoRoot, 'test', '.build', 'emulator.mjs');

/** Builds the bundle from test/emulator/main.ts, replacing any earlier one atomically. */
export async function buildEmulatorBundle(): Promise<void> {
  mkdirSync(join(repoRoot, 'test', '.build'), { recursive: true });
  const temp = `${emulatorBundle}.${process.pid}.tmp`;
  await build({
    entryPoints: [join(repoRoot, 'test', 'emulator', 'main.ts')],
    outfile: temp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // CommonJS packages inside the bundle still call require() for Node's built-in modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  renameSync(temp, emulatorBundle);
}

/**
 * The command line that starts the emulator: the bundle when it was built, else (or with
 * `fromSources`) the sources through tsx, as `npm run emulator` does.
 */
export function emulatorCommand(fromSources = false): string[] {
  return existsSync(emulatorBundle) && !fromSources
    ? [emulatorBundle]
    : ['--import', 'tsx', join('test', 'emulator', 'main.ts')];
}
