// The `scanbridge` bin runs the prebuilt bundle (main/.build/cli, built by `npm ci`'s prepare and
// by `npm test`) when it is newer than its sources, falls back to the TypeScript sources, saying
// so, when it is stale or missing, and the bundle's scan worker starts from the same chunks.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCtSeries } from '../../fixtures/dicom/generate';
import { repoRoot } from '@support/repo-paths';

const root = repoRoot;
const bundle = join(root, 'main', '.build', 'cli');
const exec = promisify(execFile);
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'sb-cli-bundle-'));
  try {
    readFileSync(join(bundle, 'inputs.json'));
  } catch {
    throw new Error('main/.build/cli is not built: run `npm run build:cli` (npm test and npm ci build it).');
  }
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A checkout of its own: the real bin and bundle, a stand-in main/cli.ts (the "sources"), and
 * inputs.json naming that one file, so its age decides.
 */
function checkout(sourceNewerThanBundle: boolean, withBundle = true): string {
  const dir = mkdtempSync(join(scratch, 'checkout-'));
  mkdirSync(join(dir, 'main', 'bin'), { recursive: true });
  cpSync(join(root, 'main', 'bin', 'scanbridge.mjs'), join(dir, 'main', 'bin', 'scanbridge.mjs'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  writeFileSync(
    join(dir, 'main', 'cli.ts'),
    "const from: string = 'sources';\nprocess.stdout.write(`from ${from}\\n`);\n",
  );
  const builtMs = Date.now() - 60_000;
  if (withBundle) {
    cpSync(bundle, join(dir, 'main', '.build', 'cli'), { recursive: true });
    writeFileSync(
      join(dir, 'main', '.build', 'cli', 'inputs.json'),
      JSON.stringify({ built_ms: builtMs, inputs: ['main/cli.ts'] }),
    );
  }
  const mtime = new Date(builtMs + (sourceNewerThanBundle ? 30_000 : -30_000));
  utimesSync(join(dir, 'main', 'cli.ts'), mtime, mtime);
  return dir;
}

const env = { ...process.env, SCANBRIDGE_FROM_SOURCES: '' };

describe('the scanbridge bin', () => {
  it('runs the bundle when it is newer than its sources', async () => {
    const dir = checkout(false);
    const empty = join(scratch, 'empty');
    mkdirSync(empty, { recursive: true });
    const { stdout, stderr } = await exec(
      process.execPath,
      [join(dir, 'main', 'bin', 'scanbridge.mjs'), 'scan', empty, '--json'],
      { env },
    );
    expect(JSON.parse(stdout)).toEqual({ root: empty, studies: [], skipped: [] });
    expect(stderr).toBe('');
  });

  it('runs the sources, saying why, when a source changed after the build', async () => {
    const dir = checkout(true);
    const { stdout, stderr } = await exec(process.execPath, [join(dir, 'main', 'bin', 'scanbridge.mjs'), 'scan'], {
      env,
    });
    expect(stdout).toBe('from sources\n');
    expect(stderr).toContain('running from the TypeScript sources');
    expect(stderr).toContain('main/cli.ts changed since it was built');
    expect(stderr).toContain('npm run build:cli');
  });

  it('runs the sources when there is no bundle at all', async () => {
    const dir = checkout(false, false);
    const { stdout, stderr } = await exec(process.execPath, [join(dir, 'main', 'bin', 'scanbridge.mjs')], { env });
    expect(stdout).toBe('from sources\n');
    expect(stderr).toContain('it is not built');
  });

  it("starts the bundle's scan worker from the same chunks, and it reads DICOM", async () => {
    const series = await writeCtSeries(join(scratch, 'ct'), {
      slices: 2,
      rows: 8,
      cols: 8,
      patientName: 'PEÑA^INÉS',
      charset: 'latin1',
      patientId: 'W-1',
    });
    const worker = new Worker(pathToFileURL(join(bundle, 'scan-worker.mjs')));
    try {
      const answer = await new Promise<{
        id: number;
        probes: { outcome: { kind: string; header?: { patient_name: string } } }[];
      }>((resolve, reject) => {
        worker.on('error', reject);
        worker.on('message', (msg: { ready?: boolean; id?: number }) => {
          if (msg.ready) worker.postMessage({ id: 7, paths: series.files.map((f) => f.path) });
          else resolve(msg as never);
        });
      });
      expect(answer.id).toBe(7);
      expect(answer.probes.map((p) => [p.outcome.kind, p.outcome.header?.patient_name])).toEqual([
        ['dicom', 'INÉS PEÑA'],
        ['dicom', 'INÉS PEÑA'],
      ]);
    } finally {
      await worker.terminate();
    }
  });
});
