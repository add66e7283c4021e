// The deflate pool: whole-file tasks go through libdeflate (and say so), the rest through zlib;
// the process's shared pool never keeps a process alive, even held, and is replaced whole when
// one of its workers dies; every output inflates back to the file.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DeflatePool,
  STREAM_CODEC,
  STRONG_CODEC,
  streamCodec,
  WHOLE_FILE_BYTES,
} from '@main/core/upload/compression/deflate-pool';
import { phantomSlice } from '@support/data/phantom';
import { repoRoot } from '@support/repo-paths';

describe('the deflate pool', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-dpool-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs `source` as a module in a child Node (the shared pool is per process): its stdout and exit code. */
  async function runModule(
    name: string,
    source: string,
    killAfterMs: number,
  ): Promise<{ out: string; code: number | null }> {
    const script = join(dir, name);
    writeFileSync(script, source);
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    return { out, code };
  }

  it('deflates whole files with libdeflate and chunks with zlib, each inflating back to the file', async () => {
    const path = join(dir, 'slice.dcm');
    const slice = phantomSlice(256, 4, 'cbct');
    writeFileSync(path, slice);
    const pool = new DeflatePool(2);
    try {
      const task = { path, offset: 0, length: slice.length, last: true };
      const [strong, plain] = await Promise.all([pool.run(task, STRONG_CODEC), pool.run(task, STREAM_CODEC)]);
      expect(strong.whole).toBe(true);
      expect(plain.whole).toBe(false);
      expect(strong.deflated.length).toBeLessThan(plain.deflated.length);
      expect(inflateRawSync(strong.deflated).equals(slice)).toBe(true);
      expect(inflateRawSync(plain.deflated).equals(slice)).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('spreads the strong share evenly, the same files on every run, never past a whole-file size', () => {
    const codecs = (share: number): string =>
      Array.from({ length: 10 }, (_, i) => (streamCodec(share, i, 1000).kind === 'whole' ? 'S' : '.')).join('');
    expect(codecs(0)).toBe('..........');
    expect(codecs(0.5)).toBe('.S.S.S.S.S');
    expect(codecs(1)).toBe('SSSSSSSSSS');
    expect(codecs(0.3)).toBe(codecs(0.3));
    expect(codecs(0.3).replace(/\./g, '')).toHaveLength(3);
    expect(streamCodec(1, 0, WHOLE_FILE_BYTES + 1)).toEqual(STREAM_CODEC);
    expect(streamCodec(undefined, 1, 1000)).toEqual(STREAM_CODEC);
  });

  it('lets a process exit while its shared pool is up, even held', async () => {
    // A task in flight keeps it alive; an idle pool does not.
    const { out, code } = await runModule(
      'idle-pool.mts',
      `import { holdDeflatePool, sharedDeflatePool } from '${join(repoRoot, 'main/core/upload/compression/deflate-pool.ts')}';\n` +
        'holdDeflatePool(true);\n' +
        'const r = await sharedDeflatePool().run({ path: process.execPath, offset: 0, length: 65536, last: true });\n' +
        'console.log(r.raw.length === 65536 ? "up" : "short");\n',
      15_000,
    );
    expect(out.trim()).toBe('up');
    expect(code).toBe(0);
  });

  it('replaces the shared pool when one of its workers dies, and stops the workers still running', async () => {
    // In a child process: the shared pool is the process's.
    const { out } = await runModule(
      'dead-worker.mts',
      `import { sharedDeflatePool } from '${join(repoRoot, 'main/core/upload/compression/deflate-pool.ts')}';\n` +
        // Idle workers do not keep a process alive: this timer does, until the end.
        'setInterval(() => undefined, 1000);\n' +
        'const task = { path: process.execPath, offset: 0, length: 65536, last: true };\n' +
        'const old = sharedDeflatePool();\n' +
        'await old.wholeFiles();\n' +
        'const [dying, other] = old.slots.map((s) => s.worker);\n' +
        'if (!dying || !other) throw new Error("the pool needs two workers for this test");\n' +
        'const otherExited = new Promise((r) => other.once("exit", () => r("stopped")));\n' +
        'await dying.terminate();\n' +
        'const next = sharedDeflatePool();\n' +
        'const r = await next.run(task);\n' +
        'const alive = new Promise((r) => setTimeout(() => r("still running"), 5000));\n' +
        'console.log(next !== old && next.usable, r.raw.length, await Promise.race([otherExited, alive]));\n' +
        'process.exit(0);\n',
      20_000,
    );
    expect(out.trim()).toBe('true 65536 stopped');
  });
});
