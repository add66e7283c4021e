// keytar is an optional dependency: where it is not installed, the keychain store fails with
// `module_unavailable` and the desktop app switches to its encrypted file; other keychain failures
// do not switch.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeytarSecretStore } from '@main/adapters/keytar-secret-store';
import { KeyManager } from '@main/core/agent/service/api-keys';
import type { LogFields } from '@main/core/log';
import type { SecretCipher, SecretStore } from '@main/core/secrets';
import {
  EncryptedFileSecretStore,
  FallbackSecretStore,
  KeychainUnavailableError,
  MemorySecretStore,
} from '@main/core/secrets';

/** keytar as it is where `npm ci` could not build it: the import itself fails. */
const missingKeytar = (): KeytarSecretStore =>
  new KeytarSecretStore({ load: () => import(/* @vite-ignore */ ['keytar', 'not-installed-here'].join('-')) });

const xorCipher: SecretCipher = {
  available: () => true,
  encrypt: (s) => Buffer.from(Buffer.from(s, 'utf8').map((b) => b ^ 0x5a)),
  decrypt: (b) => Buffer.from(b.map((x) => x ^ 0x5a)).toString('utf8'),
};

type Logged = { level: string; message: string; fields: LogFields | undefined };
const logger = (into: Logged[]) => ({
  info: (message: string, fields?: LogFields) => void into.push({ level: 'info', message, fields }),
  warn: (message: string, fields?: LogFields) => void into.push({ level: 'warn', message, fields }),
  error: (message: string, fields?: LogFields) => void into.push({ level: 'error', message, fields }),
});

describe('keychain module not installed', () => {
  let dir: string;
  beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'sb-fallback-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('fails with module_unavailable and a message that says what is missing', async () => {
    const err = await missingKeytar()
      .get('live')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KeychainUnavailableError);
    expect((err as KeychainUnavailableError).problem).toBe('module_unavailable');
    expect((err as Error).message).toContain('keytar');
    expect((err as Error).message).toContain('SCANBRIDGE_API_KEY');
  });

  it('desktop app: keys go to the encrypted file instead, never in plain text', async () => {
    const file = join(dir, 'keys.json');
    const store = new FallbackSecretStore(missingKeytar(), new EncryptedFileSecretStore(file, xorCipher));
    await store.set('live', 'sk_live_plaintextcheck');
    expect(readFileSync(file, 'utf8')).not.toContain('plaintextcheck');
    expect(await store.get('live')).toBe('sk_live_plaintextcheck');
  });

  it('does not switch for a keychain that is only locked or absent for now', async () => {
    const locked: SecretStore = {
      get: () => Promise.reject(new KeychainUnavailableError('locked', 'collection locked')),
      set: () => Promise.reject(new KeychainUnavailableError('locked', 'collection locked')),
      delete: () => Promise.reject(new KeychainUnavailableError('locked', 'collection locked')),
    };
    const fallback = new MemorySecretStore({ live: 'sk_live_other' });
    await expect(new FallbackSecretStore(locked, fallback).get('live')).rejects.toMatchObject({ problem: 'locked' });
  });

  it('the app says so once and keeps the key for the session only', async () => {
    const logged: Logged[] = [];
    const keys = new KeyManager(missingKeytar(), logger(logged));
    await keys.load();
    expect(keys.keychainState).toMatchObject({ available: false, reason: 'no_module' });
    await keys.save('sk_live_first0001');
    await keys.save('cbct_test_second0002');
    expect(keys.slot('live')).toEqual({ present: true, hint: '0001', session_only: true });
    expect(keys.slot('sandbox')).toMatchObject({ present: true, session_only: true });
    // Without the optional module the app is set up as expected: one info line, no warning.
    expect(logged.filter((l) => l.level === 'warn')).toHaveLength(0);
    expect(logged.filter((l) => /keychain support/.test(l.message))).toEqual([
      {
        level: 'info',
        message: 'keychain support is not installed: keys are kept for this session only',
        fields: undefined,
      },
    ]);
  });
});
