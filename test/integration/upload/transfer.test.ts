import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileRange } from '@main/core/upload/transfer/file-source';
import {
  createAgents,
  putOnce,
  putWithRetry,
  TransferError,
  type TransferAgents,
} from '@main/core/upload/transfer/transfer';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { connect, fileSha, sha256 } from '../../support/harness/upload-harness';

describe('presigned PUT transfer', () => {
  let emu: EmulatorProcess;
  let dir: string;
  let agents: TransferAgents;
  const SIZE = 300_000;
  let file: string;
  beforeAll(async () => {
    emu = await EmulatorProcess.start();
    dir = mkdtempSync(join(tmpdir(), 'sb-transfer-'));
    file = join(dir, 'a.dcm');
    writeFileSync(file, Buffer.alloc(SIZE, 9));
    agents = createAgents(4);
  });
  afterAll(async () => {
    agents.destroy();
    await emu.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  async function slot(): Promise<{ id: string; url: string }> {
    const { client } = connect(emu, 'ultra');
    const c = await client.exams.create({
      name: 'transfer',
      upload_mode: 'files',
      files: [{ name: 'a.dcm', size: SIZE }],
    });
    return { id: c.id, url: c.upload_urls?.[0]?.url ?? '' };
  }
  const body = { size: SIZE, open: () => openFileRange(file, SIZE) };
  const base = { stallTimeoutMs: 2000, maxAttempts: 4, backoff: { baseMs: 10, capMs: 50 } };
  const kindOf = (p: Promise<unknown>): Promise<string> =>
    p.then(
      () => 'ok',
      (e: unknown) => (e instanceof TransferError ? e.kind : String(e)),
    );

  it('streams the file with its exact length and counts progress to the byte', async () => {
    const { url } = await slot();
    let progress = 0;
    await putOnce(url, body, { agents, ...base, onProgress: (d) => (progress += d) });
    expect(progress).toBe(SIZE);
    expect(sha256(new Uint8Array(await (await fetch(url)).arrayBuffer()))).toBe(fileSha(file));
  });

  it('retries 5xx and resets with a fresh stream, rolling back the failed attempt in progress', async () => {
    const { url } = await slot();
    await emu.control('POST', '/faults', { target: 'storage', mode: 'error500', count: 1, match: 'PUT /storage/' });
    await emu.control('POST', '/faults', { target: 'storage', mode: 'reset', count: 1, match: 'PUT /storage/' });
    let progress = 0;
    const attempts: number[] = [];
    await putWithRetry(url, body, {
      agents,
      ...base,
      onProgress: (d) => (progress += d),
      onRetry: (r) => attempts.push(r.attempt),
    });
    expect(attempts).toEqual([1, 2]);
    expect(progress).toBe(SIZE);
    expect(sha256(new Uint8Array(await (await fetch(url)).arrayBuffer()))).toBe(fileSha(file));
  });

  it('gives up a stalled attempt after the stall time-out', async () => {
    const { url } = await slot();
    await emu.control('POST', '/faults', { target: 'storage', mode: 'stall', count: 1, match: 'PUT /storage/' });
    const t0 = performance.now();
    const err: unknown = await putOnce(url, body, { agents, ...base, stallTimeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransferError);
    expect((err as TransferError).kind).toBe('retryable');
    expect((err as TransferError).message).toContain('stalled');
    expect(performance.now() - t0).toBeLessThan(3000);
  });

  it('stops retrying after maxAttempts', async () => {
    const { url } = await slot();
    await emu.control('POST', '/faults', { target: 'storage', mode: 'error500', count: 4, match: 'PUT /storage/' });
    let retries = 0;
    expect(await kindOf(putWithRetry(url, body, { agents, ...base, onRetry: () => retries++ }))).toBe('retryable');
    expect(retries).toBe(3);
  });

  it('tells expired URLs, deleted exams, finished exams and size mismatches apart', async () => {
    const expired = await slot();
    await emu.control('POST', '/faults', { target: 'storage', mode: 'expire', count: 1, match: 'PUT /storage/' });
    expect(await kindOf(putWithRetry(expired.url, body, { agents, ...base }))).toBe('expired');

    const wrong = await slot();
    expect(
      await kindOf(
        putOnce(wrong.url, { size: SIZE - 1, open: () => openFileRange(file, SIZE - 1) }, { agents, ...base }),
      ),
    ).toBe('size_mismatch');

    const { client } = connect(emu, 'ultra');
    const done = await slot();
    await putOnce(done.url, body, { agents, ...base });
    await client.exams.confirm(done.id);
    expect(await kindOf(putOnce(done.url, body, { agents, ...base }))).toBe('conflict');

    const gone = await slot();
    await client.exams.remove(gone.id);
    expect(await kindOf(putOnce(gone.url, body, { agents, ...base }))).toBe('gone');
  });

  it('reports an unreadable source as such, not as a network fault', async () => {
    const { url } = await slot();
    const missing = { size: SIZE, open: () => openFileRange(join(dir, 'nope.dcm'), SIZE) };
    expect(await kindOf(putWithRetry(url, missing, { agents, ...base }))).toBe('source');
  });

  it('fails at once, without waiting for a stall, when the body is shorter than declared', async () => {
    const { url } = await slot();
    const short = { size: SIZE, open: () => openFileRange(file, SIZE - 10) };
    const t0 = performance.now();
    expect(await kindOf(putWithRetry(url, short, { agents, ...base, stallTimeoutMs: 10_000 }))).toBe('source');
    expect(performance.now() - t0).toBeLessThan(3000);
  });

  it('aborts at once when its signal fires', async () => {
    const { url } = await slot();
    const ac = new AbortController();
    const p = putOnce(
      url,
      { size: SIZE, open: () => openFileRange(file, SIZE) },
      { agents, ...base, signal: ac.signal, bucket: undefined },
    );
    ac.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });
});
