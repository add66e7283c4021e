// Reading an archive while its writer appends to it: only committed bytes are read, the reader
// waits (held) until more are committed, and a writer that stops short of
// the declared size fails the read instead of leaving it waiting.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { type GrowingFile, GrowingFileReader } from '@main/core/upload/transfer/file-source';

/** A writer stand-in: appends to the file, then commits, and wakes whoever waits. */
function growingFile(path: string): GrowingFile & {
  append(data: Buffer): void;
  end(): void;
} {
  let committed = 0;
  let ended = false;
  const waiters: { offset: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  const wake = (): void => {
    for (const w of waiters.splice(0)) {
      if (committed >= w.offset) w.resolve();
      else if (ended) w.reject(new Error('ended short'));
      else waiters.push(w);
    }
  };
  writeFileSync(path, '');
  return {
    path,
    committed: () => committed,
    waitFor: (offset) =>
      committed >= offset
        ? Promise.resolve()
        : ended
          ? Promise.reject(new Error('ended short'))
          : new Promise<void>((resolve, reject) => waiters.push({ offset, resolve, reject })),
    append: (data) => {
      appendFileSync(path, data);
      committed += data.length;
      wake();
    },
    end: () => {
      ended = true;
      wake();
    },
  };
}

describe('GrowingFileReader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-growing-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the committed bytes as they come, waiting (held) in between, to exactly the declared size', async () => {
    const file = growingFile(join(dir, 'a.bin'));
    const parts = [Buffer.alloc(300_000, 1), Buffer.alloc(10, 2), Buffer.alloc(700_000, 3)];
    const whole = Buffer.concat(parts);
    // Uncommitted bytes past the end are never read: the file holds more than is declared.
    const reader = new GrowingFileReader(file, whole.length);
    const read = buffer(reader);
    file.append(parts[0] as Buffer);
    await new Promise((r) => setTimeout(r, 30));
    expect(reader.held).toBe(true);
    file.append(parts[1] as Buffer);
    await new Promise((r) => setTimeout(r, 30));
    file.append(parts[2] as Buffer);
    appendFileSync(file.path, 'not declared');
    expect((await read).equals(whole)).toBe(true);
    expect(reader.held).toBe(false);
  });

  it('fails when the writer ends short of the declared size', async () => {
    const file = growingFile(join(dir, 'b.bin'));
    const reader = new GrowingFileReader(file, 1000);
    const read = buffer(reader);
    file.append(Buffer.alloc(400));
    file.end();
    await expect(read).rejects.toThrow('ended short');
  });
});
