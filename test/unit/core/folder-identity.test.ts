// Which folder a path names: links resolved, other spellings of the same folder equal, letter case
// folded where file systems ignore it; and a watcher given a link reports exports under the
// folder's own path, as an upload of that folder would name it.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonicalFolder, folderIdentity, sameFolder } from '@main/core/folder-identity';
import { FolderWatcher } from '@main/core/watch';
import type { ExportReady } from '@main/core/watch';
import { folderConfig, record, smallSeries, waitFor } from '@support/harness/watch-harness';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sb-identity-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('folder identity', () => {
  it('resolves links and other spellings to the folder itself', () => {
    const real = join(dir, 'Exportaciones escáner');
    mkdirSync(real);
    symlinkSync(real, join(dir, 'enlace'));
    const realPath = canonicalFolder(real);
    expect(canonicalFolder(join(dir, 'enlace'))).toBe(realPath);
    expect(canonicalFolder(join(dir, 'enlace', '..', 'enlace', '.'))).toBe(realPath);
    expect(sameFolder(join(dir, 'enlace'), real)).toBe(true);
    expect(sameFolder(real, join(dir, 'otra'))).toBe(false);
  });

  it('keeps a path that does not exist (yet) as its absolute form', () => {
    expect(canonicalFolder(join(dir, 'share', '..', 'later'))).toBe(join(canonicalFolder(dir), 'later'));
  });

  it('folds letter case where file systems ignore it, and only there', () => {
    const missing = join(dir, 'Ana Núñez');
    expect(folderIdentity(missing, 'win32')).toBe(folderIdentity(join(dir, 'ANA NÚÑEZ'), 'win32'));
    expect(folderIdentity(missing, 'darwin')).toBe(folderIdentity(join(dir, 'ana núñez'), 'darwin'));
    expect(folderIdentity(missing, 'linux')).not.toBe(folderIdentity(join(dir, 'ana núñez'), 'linux'));
  });

  it('a watcher given a link watches the folder and reports exports under its own path', async () => {
    const real = join(dir, 'watched');
    mkdirSync(real);
    symlinkSync(real, join(dir, 'link'));
    const w = new FolderWatcher(folderConfig(join(dir, 'link'), { settle_seconds: 0.3 }));
    try {
      expect(w.root).toBe(canonicalFolder(real));
      const ready = record<ExportReady>(w, 'export:ready');
      await w.start();
      await smallSeries(join(real, 'EXPORT'), 2);
      await waitFor(() => ready.length === 1, 10_000, 'the export');
      expect(ready[0]?.value.exportPath).toBe(join(canonicalFolder(real), 'EXPORT'));
    } finally {
      await w.close();
    }
  });
});
