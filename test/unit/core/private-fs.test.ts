// Private by default: folders ScanBridge makes are 0700 from the start, and a tree an older
// version left readable (0755 folders, 0644 journals) is tightened, symbolic links untouched.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensurePrivateDir, securePrivateFolders, tightenPrivateTree } from '@main/core/private-fs';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'sb-private-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const mode = (p: string): number => statSync(p).mode & 0o777;

describe('private folders', () => {
  it('creates every missing level 0700, whatever the umask', () => {
    const old = process.umask(0o000);
    try {
      ensurePrivateDir(join(tmp, 'a', 'b', 'c'));
    } finally {
      process.umask(old);
    }
    for (const d of ['a', 'a/b', 'a/b/c']) expect(mode(join(tmp, d))).toBe(0o700);
  });

  it('tightens an existing tree and leaves the target of a link alone', () => {
    const data = join(tmp, 'data');
    mkdirSync(join(data, 'jobs'), { recursive: true, mode: 0o755 });
    chmodSync(data, 0o755);
    chmodSync(join(data, 'jobs'), 0o775);
    writeFileSync(join(data, 'jobs', 'j.jsonl'), '{}', { mode: 0o644 });
    chmodSync(join(data, 'jobs', 'j.jsonl'), 0o644);
    const outside = join(tmp, 'users-own-file');
    writeFileSync(outside, 'x');
    chmodSync(outside, 0o644);
    symlinkSync(outside, join(data, 'link'));
    expect(tightenPrivateTree(data)).toBe(3);
    expect(mode(data)).toBe(0o700);
    expect(mode(join(data, 'jobs'))).toBe(0o700);
    expect(mode(join(data, 'jobs', 'j.jsonl'))).toBe(0o600);
    expect(mode(outside)).toBe(0o644);
    expect(tightenPrivateTree(data)).toBe(0);
  });

  it('secures start-up folders that do not exist yet', () => {
    securePrivateFolders([join(tmp, 'cfg'), join(tmp, 'dat')]);
    expect(mode(join(tmp, 'cfg'))).toBe(0o700);
    expect(mode(join(tmp, 'dat'))).toBe(0o700);
  });
});
