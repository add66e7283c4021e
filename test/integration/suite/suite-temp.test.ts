// The test suite leaves nothing in the system temp folder: vitest's global setup gives the run a
// private temp folder (inherited by every test process and what it starts) and removes it at the end.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@support/repo-paths';

const root = repoRoot;
const exec = promisify(execFile);
const systemTmp = mkdtempSync(join(tmpdir(), 'sb-suite-tmp-'));
afterAll(() => rmSync(systemTmp, { recursive: true, force: true }));

describe('test suite temp files', () => {
  it('a run whose tests litter the temp folder leaves nothing in it', async () => {
    const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
    const { stdout } = await exec(
      process.execPath,
      [vitest, 'run', '--config', 'test/fixtures/suite-temp/vitest.config.ts'],
      {
        cwd: root,
        env: { ...process.env, TMPDIR: systemTmp, SCANBRIDGE_REPORT_TMP_LEFTOVERS: '1', NO_COLOR: '1' },
      },
    );
    expect(stdout).toContain('1 passed');
    expect(readdirSync(systemTmp)).toEqual([]);
  }, 60_000);
});
