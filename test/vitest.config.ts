import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// The aliases of test/tsconfig.json: tests name the code they exercise by its place in the repository.
const alias = {
  '@main': `${root}main`,
  '@preload': `${root}preload`,
  '@renderer': `${root}renderer`,
  '@support': `${root}test/support`,
  '@fixtures': `${root}test/fixtures`,
};

export default defineConfig({
  root,
  resolve: { alias },
  test: {
    include: ['test/{unit,integration,emulator}/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/e2e/**'],
    environment: 'node',
    pool: 'forks',
    // Most files spend their time waiting on child processes (emulator, CLI, serve) and timers, not on
    // the CPU: two forks keep both cores of a 2-core machine busy (vitest's default there is one). A
    // third fork was slower on a busy machine and made the timing-sensitive tests (rate windows,
    // kill -9 mid-write, webhook retry schedules) fail.
    maxWorkers: 2,
    // A worker's files share one process and its loaded modules, one file after the other: loading
    // everything again for each file was a large share of the suite's time. What a file may leave
    // in the process is put back before the next one (shared-process-reset.ts).
    isolate: false,
    setupFiles: ['test/support/shared-process-reset.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/support/global-setup.ts'],
  },
});
