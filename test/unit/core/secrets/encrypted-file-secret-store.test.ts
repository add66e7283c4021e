// The desktop app's at-rest fallback for API keys, with a real AES-256-GCM cipher standing in for
// Electron's safeStorage (the file format and the refusals do not depend on which cipher it is).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SecretCipher } from '@main/core/secrets';
import { EncryptedFileSecretStore, KeychainUnavailableError } from '@main/core/secrets';

function aesCipher(key = randomBytes(32), available = true): SecretCipher {
  return {
    available: () => available,
    encrypt: (plain) => {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]);
    },
    decrypt: (data) => {
      const d = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      d.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([d.update(data.subarray(28)), d.final()]).toString('utf8');
    },
  };
}

const LIVE = 'sk_live_0123456789abcdefSECRET';
const SANDBOX = 'sk_test_fedcba9876543210SECRET';

describe('EncryptedFileSecretStore', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-keyfile-'));
    file = join(dir, 'data', 'keys.safe-storage.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps keys encrypted, readable by the user alone, and gives them back', async () => {
    const cipher = aesCipher();
    const store = new EncryptedFileSecretStore(file, cipher);
    expect(await store.get('live')).toBeNull();
    await Promise.all([store.set('live', LIVE), store.set('sandbox', SANDBOX)]);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('SECRET');
    expect(text).not.toContain(Buffer.from(LIVE).toString('base64'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A new instance (the next start) reads what the last one wrote.
    const again = new EncryptedFileSecretStore(file, cipher);
    expect(await again.get('live')).toBe(LIVE);
    expect(await again.get('sandbox')).toBe(SANDBOX);
    expect(await again.delete('live')).toBe(true);
    expect(await again.delete('live')).toBe(false);
    expect(await again.get('live')).toBeNull();
    expect(await again.get('sandbox')).toBe(SANDBOX);
  });

  it('refuses to write anything when the platform offers no real encryption', async () => {
    const store = new EncryptedFileSecretStore(file, aesCipher(randomBytes(32), false));
    const err = await store.set('live', LIVE).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KeychainUnavailableError);
    expect((err as KeychainUnavailableError).problem).toBe('module_unavailable');
    expect(existsSync(file)).toBe(false);
    await expect(store.get('live')).rejects.toBeInstanceOf(KeychainUnavailableError);
  });

  it('reports a key it can no longer decrypt (another OS secret) as a locked keychain', async () => {
    await new EncryptedFileSecretStore(file, aesCipher()).set('live', LIVE);
    const other = new EncryptedFileSecretStore(file, aesCipher());
    await expect(other.get('live')).rejects.toMatchObject({ problem: 'locked' });
  });
});
