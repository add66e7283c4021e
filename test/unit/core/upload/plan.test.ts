import { mkdtempSync, openSync, closeSync, ftruncateSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UploadError } from '@main/core/upload/ports/upload-errors';
import { fingerprintOf, planUpload } from '@main/core/upload/plan/plan';

async function planError(p: Promise<unknown>): Promise<UploadError> {
  const err: unknown = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UploadError);
  return err as UploadError;
}

describe('planning an upload', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-plan-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, bytes: number): { path: string; name: string } => {
    const path = join(dir, name.replace(/\//g, '_'));
    writeFileSync(path, Buffer.alloc(bytes, 1));
    return { path, name };
  };

  it('records size, mtime and inode of every file and the exact ZIP size', async () => {
    const files = [write('a/1.dcm', 100), write('a/2.dcm', 0)];
    const plan = await planUpload({ root: dir, fields: { name: 'CBCT' }, files, mode: 'files' });
    expect(plan.files.map((f) => [f.name, f.size])).toEqual([
      ['a/1.dcm', 100],
      ['a/2.dcm', 0],
    ]);
    expect(plan.files[0]?.mtimeMs).toBeGreaterThan(0);
    expect(plan.files[0]?.ino).toBeGreaterThan(0);
    expect(plan.bytes).toBe(100);
    expect(plan.zipSize).toBeGreaterThan(100);
  });

  it('refuses more than 5000 files before touching the disk', async () => {
    const files = Array.from({ length: 5001 }, (_, i) => ({ path: join(dir, `missing-${i}`), name: `f${i}.dcm` }));
    const err = await planError(planUpload({ root: dir, fields: { name: 'x' }, files, mode: 'files' }));
    expect(err.code).toBe('too_many_files');
    expect(err.message).toContain('5000');
  });

  it('refuses a name over 200 characters and an empty name', async () => {
    const files = [write('a.dcm', 1)];
    expect(
      (await planError(planUpload({ root: dir, fields: { name: 'x'.repeat(201) }, files, mode: 'files' }))).code,
    ).toBe('name_too_long');
    expect((await planError(planUpload({ root: dir, fields: { name: '  ' }, files, mode: 'files' }))).code).toBe(
      'name_required',
    );
    await expect(
      planUpload({ root: dir, fields: { name: 'x'.repeat(200) }, files, mode: 'files' }),
    ).resolves.toBeTruthy();
  });

  it('refuses a ZIP over 1 GB in zip mode, and auto mode then picks files', async () => {
    const path = join(dir, 'big.dcm');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, 1_073_741_824); // sparse: no real disk use
    closeSync(fd);
    const err = await planError(
      planUpload({ root: dir, fields: { name: 'x' }, files: [{ path, name: 'big.dcm' }], mode: 'zip' }),
    );
    expect(err.code).toBe('zip_too_large');
    const auto = await planUpload({
      root: dir,
      fields: { name: 'x' },
      files: [{ path, name: 'big.dcm' }],
      mode: 'auto',
    });
    expect(auto.mode).toBe('files');
  });

  it('refuses an empty file list, unsafe names and duplicates', async () => {
    expect((await planError(planUpload({ root: dir, fields: { name: 'x' }, files: [], mode: 'files' }))).code).toBe(
      'no_files',
    );
    const f = write('a.dcm', 1);
    for (const name of ['../a.dcm', '/a.dcm', 'a\\b.dcm', 'a//b', '']) {
      expect(
        (await planError(planUpload({ root: dir, fields: { name: 'x' }, files: [{ ...f, name }], mode: 'files' })))
          .code,
      ).toBe('invalid_file_name');
    }
    expect((await planError(planUpload({ root: dir, fields: { name: 'x' }, files: [f, f], mode: 'files' }))).code).toBe(
      'duplicate_file_name',
    );
  });

  it('names a file that cannot be read', async () => {
    const err = await planError(
      planUpload({
        root: dir,
        fields: { name: 'x' },
        files: [{ path: join(dir, 'nope'), name: 'scans/nope.dcm' }],
        mode: 'files',
      }),
    );
    expect(err.code).toBe('file_unreadable');
    expect(err.message).toContain('scans/nope.dcm');
  });

  it('fingerprints the file set independently of order, and notices a changed size', () => {
    const a = { name: 'a', path: '/a', size: 1, mtimeMs: 5, ino: 1 };
    const b = { name: 'b', path: '/b', size: 2, mtimeMs: 5, ino: 2 };
    expect(fingerprintOf([a, b])).toBe(fingerprintOf([b, a]));
    expect(fingerprintOf([a, b])).not.toBe(fingerprintOf([a, { ...b, size: 3 }]));
  });
});
