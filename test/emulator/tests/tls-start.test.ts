// `--tls`: HTTPS with a certificate from the data folder's own CA, kept across restarts.
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { afterAll, describe, expect, it } from 'vitest';
import { EmulatorProcess } from '@support/emulator/emulator';

const started: EmulatorProcess[] = [];

afterAll(async () => {
  for (const e of started.reverse()) await e.dispose();
});

function status(url: string, ca?: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(url, ca ? { ca } : {}, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    req.end();
  });
}

describe('emulator --tls', () => {
  it('serves https:// with ca_file, refused without that CA, and keeps the CA on a restart', async () => {
    const first = await EmulatorProcess.start({ tls: true });
    started.push(first);
    expect(first.info.base_url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(first.info.control_url).toMatch(/^https:\/\//);
    const caFile = first.info.ca_file ?? '';
    const ca = readFileSync(caFile, 'utf8');
    expect(await status(`${first.info.base_url}/me`)).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    expect(await status(`${first.info.base_url}/me`, ca)).toBe(401);
    const second = await first.restart();
    started.push(second);
    expect(second.info.ca_file).toBe(caFile);
    expect(readFileSync(caFile, 'utf8')).toBe(ca);
    expect(await status(`${second.info.base_url}/me`, ca)).toBe(401);
  });
});
