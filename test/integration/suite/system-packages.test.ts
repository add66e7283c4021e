// `npm test` on a machine that lacks Debian packages and where this user cannot install them: it
// stops within a second naming the exact apt-get line. `.ci/run` and `npm test` share one list.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@support/repo-paths';

const root = repoRoot;

type Run = { code: number; stderr: string; ms: number };
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env, cwd = root): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env }, (err, _stdout, stderr) => {
      const code = err
        ? typeof (err as { code?: unknown }).code === 'number'
          ? (err as { code: number }).code
          : -1
        : 0;
      resolve({ code, stderr, ms: performance.now() - started });
    });
  });
}

describe('system packages for npm test', () => {
  it('are all installed on this test machine', async () => {
    expect(await run('bash', ['.ci/system-packages.sh', '--check'])).toMatchObject({ code: 0 });
  });

  it('stop within a second with the exact apt-get line when some are missing and cannot be installed', async () => {
    // The real list plus one package that does not exist.
    const env = {
      ...process.env,
      SCANBRIDGE_DEBIAN_PACKAGES: `${readFileSync(join(root, '.ci/debian-packages'), 'utf8')}scanbridge-no-such-package # missing\n`,
    };
    const script = readFileSync(join(root, '.ci/system-packages.sh'), 'utf8');
    // As root the script would install: run it as an unprivileged user (nobody has no sudo).
    const isRoot = process.getuid?.() === 0;
    const result = isRoot
      ? await run(
          'setpriv',
          ['--reuid=65534', '--regid=65534', '--clear-groups', 'bash', '-c', script, 'system-packages.sh'],
          env,
          '/',
        )
      : await run('bash', ['-c', script, 'system-packages.sh', '--check'], env, '/');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'sudo apt-get update && sudo apt-get install -y --no-install-recommends scanbridge-no-such-package\n',
    );
    expect(result.ms).toBeLessThan(1000);
  });

  it('come from one list that .ci/run and npm test both use', () => {
    expect(readFileSync(join(root, '.ci/run'), 'utf8')).toMatch(/^bash \.ci\/system-packages\.sh\s*$/m);
    expect(readFileSync(join(root, 'test/run-tests.sh'), 'utf8')).toMatch(/^\s*bash \.ci\/system-packages\.sh\s*$/m);
    const list = readFileSync(join(root, '.ci/debian-packages'), 'utf8');
    for (const p of ['chromium', 'chromium-headless-shell', 'dcmtk', 'gnome-keyring', 'dbus', 'libsecret-1-dev'])
      expect(list).toMatch(new RegExp(`^${p}\\b`, 'm'));
  });
});
