// The Windows job's tests (test/windows/run.sh): the project's aliases and global setup (emulator
// bundle, private temp folder), one file at a time, since every test starts Windows processes
// under one Wine server.
import { defineConfig } from 'vitest/config';
import base from '../vitest.config';

export default defineConfig({
  ...base,
  test: { ...base.test, include: ['test/windows/**/*.test.ts'], maxWorkers: 1, testTimeout: 120_000 },
});
