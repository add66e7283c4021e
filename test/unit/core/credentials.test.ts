import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CredentialsError, resolveCredentials } from '@main/core/credentials';
import { KeychainUnavailableError } from '@main/core/secrets/keychain-errors';
import { MemorySecretStore } from '@main/core/secrets/memory-secret-store';
import type { SecretStore } from '@main/core/secrets/secret-store';
import { openSettingsStore, type SettingsStore } from '@main/core/settings/store';

describe('resolveCredentials', () => {
  let dir: string;
  let store: SettingsStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-creds-'));
    store = openSettingsStore({ cwd: dir });
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const LIVE = 'cbct_live_11111111111111111111111111111111';
  const TEST = 'cbct_test_22222222222222222222222222222222';

  it('takes URL and key from the environment first, touching neither settings nor keychain', async () => {
    const c = await resolveCredentials({
      env: { SCANBRIDGE_API_URL: 'http://127.0.0.1:9/api/v1', SCANBRIDGE_API_KEY: ` ${TEST} ` },
      settings: () => {
        throw new Error('settings read');
      },
      secrets: () => {
        throw new Error('keychain opened');
      },
    });
    expect(c).toEqual({
      baseUrl: 'http://127.0.0.1:9/api/v1',
      apiKey: TEST,
      keyKind: 'sandbox',
      source: { baseUrl: 'env', apiKey: 'env' },
    });
  });

  it('falls back to the settings and the keychain entry of the active key kind', async () => {
    store.update({ api_base_url: 'https://api.example.cl/api/v1', active_key_kind: 'sandbox' });
    const secrets = new MemorySecretStore({ live: LIVE, sandbox: TEST });
    const c = await resolveCredentials({ env: {}, settings: () => store.get(), secrets: () => secrets });
    expect(c).toEqual({
      baseUrl: 'https://api.example.cl/api/v1',
      apiKey: TEST,
      keyKind: 'sandbox',
      source: { baseUrl: 'settings', apiKey: 'keychain' },
    });
    store.update({ active_key_kind: 'live' });
    expect((await resolveCredentials({ env: {}, settings: () => store.get(), secrets: () => secrets })).apiKey).toBe(
      LIVE,
    );
  });

  it('mixes sources: key from the environment, URL from settings', async () => {
    store.update({ api_base_url: 'https://api.example.cl/api/v1' });
    const c = await resolveCredentials({
      env: { SCANBRIDGE_API_KEY: LIVE },
      settings: () => store.get(),
      secrets: () => new MemorySecretStore(),
    });
    expect(c.source).toEqual({ baseUrl: 'settings', apiKey: 'env' });
  });

  it('says clearly what is missing', async () => {
    const secrets = new MemorySecretStore();
    const noUrl = await resolveCredentials({ env: {}, settings: () => store.get(), secrets: () => secrets }).catch(
      (e: unknown) => e,
    );
    expect(noUrl).toBeInstanceOf(CredentialsError);
    expect((noUrl as CredentialsError).code).toBe('no_api_url');
    expect((noUrl as CredentialsError).message).toContain('SCANBRIDGE_API_URL');
    store.update({ api_base_url: 'https://api.example.cl/api/v1' });
    const noKey = await resolveCredentials({ env: {}, settings: () => store.get(), secrets: () => secrets }).catch(
      (e: unknown) => e,
    );
    expect((noKey as CredentialsError).code).toBe('no_api_key');
    expect((noKey as CredentialsError).message).toContain('SCANBRIDGE_API_KEY');
    const badUrl = await resolveCredentials({
      env: { SCANBRIDGE_API_URL: 'api.example.cl' },
      settings: () => store.get(),
      secrets: () => secrets,
    }).catch((e: unknown) => e);
    expect((badUrl as CredentialsError).code).toBe('invalid_api_url');
  });

  it('lets a keychain failure through with its own message', async () => {
    store.update({ api_base_url: 'https://api.example.cl/api/v1' });
    const broken: SecretStore = {
      get: () => Promise.reject(new KeychainUnavailableError('no_dbus', 'x')),
      set: () => Promise.resolve(),
      delete: () => Promise.resolve(false),
    };
    await expect(
      resolveCredentials({ env: {}, settings: () => store.get(), secrets: () => broken }),
    ).rejects.toBeInstanceOf(KeychainUnavailableError);
  });
});
