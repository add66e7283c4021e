// The shared temp-then-rename writer: the new content or the old, never a temp file left, 0600.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DebouncedSave, writeFileAtomic, writeFileAtomicSync, writeJsonAtomic } from '@main/core/atomic-file';

const dir = mkdtempSync(join(tmpdir(), 'sb-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('atomic file writer', () => {
  it('replaces a file whole, private to its user, and leaves no temp file', async () => {
    const file = join(dir, 'sub', 'list.json');
    await writeJsonAtomic(file, { v: 1 });
    writeFileAtomicSync(file, 'second', { durable: true });
    await writeFileAtomic(file, 'third');
    expect(readFileSync(file, 'utf8')).toBe('third');
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'sub'))).toEqual(['list.json']);
  });

  it('keeps the old file when the write fails', async () => {
    const file = join(dir, 'keep.json');
    writeFileSync(file, 'old');
    await expect(writeFileAtomic(join(file, 'not-a-folder', 'x'), 'new')).rejects.toThrow();
    expect(readFileSync(file, 'utf8')).toBe('old');
  });

  it('coalesces a burst of saves into one write, and flush writes what is pending', async () => {
    let writes = 0;
    const saves = new DebouncedSave(async () => void writes++, 50);
    for (let i = 0; i < 10; i++) saves.schedule();
    await new Promise((r) => setTimeout(r, 120));
    expect(writes).toBe(1);
    saves.schedule();
    await saves.flush();
    expect(writes).toBe(2);
  });
});
