import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { saveSignedCopy, signedCopyName } from '@main/core/consent/copies';
import { hashMatches } from '@main/core/consent/hash';

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'sb-consent-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the signed PDF check', () => {
  const pdf = Buffer.from('%PDF-1.7\nsigned consent\n%%EOF\n');
  const sha = createHash('sha256').update(pdf).digest('hex');

  it('verifies bytes against the service hash, in either case', () => {
    expect(hashMatches(pdf, sha)).toEqual({ local: sha, verified: true });
    expect(hashMatches(pdf, sha.toUpperCase()).verified).toBe(true);
  });

  it('refuses one changed byte, a missing hash, another hash', () => {
    const changed = Buffer.from(pdf);
    changed[10] = (changed[10] ?? 0) ^ 1;
    expect(hashMatches(changed, sha).verified).toBe(false);
    expect(hashMatches(pdf, null).verified).toBe(false);
    expect(hashMatches(pdf, '0'.repeat(64))).toEqual({ local: sha, verified: false });
  });
});

describe('the signed copy on disk', () => {
  it('is written whole, readable by the owner only, in a private folder it creates', async () => {
    const root = tempDir();
    const folder = join(root, 'copies', 'nested');
    const bytes = Buffer.from('%PDF-1.7 consent');
    const path = await saveSignedCopy(folder, 'exm_abc', bytes);
    expect(path).toBe(join(folder, 'consent-exm_abc-signed.pdf'));
    expect(readFileSync(path)).toEqual(bytes);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(readdirSync(folder)).toEqual(['consent-exm_abc-signed.pdf']);
  });

  it('replaces an earlier copy of the same exam', async () => {
    const folder = tempDir();
    await saveSignedCopy(folder, 'exm_1', Buffer.from('one'));
    const path = await saveSignedCopy(folder, 'exm_1', Buffer.from('two'));
    expect(readFileSync(path, 'utf8')).toBe('two');
    expect(readdirSync(folder)).toHaveLength(1);
  });

  it('names files by exam id only, with nothing that could leave the folder', () => {
    expect(signedCopyName('../../etc/passwd')).toBe('consent-______etc_passwd-signed.pdf');
  });

  it('fails cleanly when the folder cannot be made', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'blocker'), 'a file where the folder should be');
    await expect(saveSignedCopy(join(root, 'blocker', 'sub'), 'y', Buffer.from('y'))).rejects.toMatchObject({
      code: expect.stringMatching(/ENOTDIR|EEXIST/),
    });
    expect(readdirSync(root)).toEqual(['blocker']);
  });
});
