// The only module that imports keytar (a native module): API keys and the proxy's login in the OS keychain.
import type * as KeytarModule from 'keytar'; // as declared in keytar.d.ts, installed or not
import {
  DEFAULT_KEYCHAIN_TIMEOUT_MS,
  KeychainUnavailableError,
  withKeychainTimeout,
} from '../core/secrets/keychain-errors';
import type { SecretName, SecretStore } from '../core/secrets/secret-store';

/** Service name of the keychain entries. */
export const KEYCHAIN_SERVICE = 'ScanBridge';

type Keytar = Pick<typeof KeytarModule, 'getPassword' | 'setPassword' | 'deletePassword'>;

const ACCOUNTS: Record<SecretName, string> = {
  live: 'api-key-live',
  sandbox: 'api-key-sandbox',
  proxy_user: 'proxy-user',
  proxy_password: 'proxy-password',
};

/**
 * SecretStore on the OS keychain (libsecret, macOS Keychain, Windows Credential Manager). Every call
 * gives up after `timeoutMs` with KeychainUnavailableError instead of hanging without a daemon.
 */
export class KeytarSecretStore implements SecretStore {
  private loaded: Promise<Keytar> | undefined;
  private readonly service: string;
  private readonly timeoutMs: number;

  private readonly load: () => Promise<Keytar & { default?: Keytar }>;

  constructor(
    options: { service?: string; timeoutMs?: number; load?: () => Promise<Keytar & { default?: Keytar }> } = {},
  ) {
    this.service = options.service ?? KEYCHAIN_SERVICE;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_KEYCHAIN_TIMEOUT_MS;
    // keytar is an optional dependency: `npm ci` leaves it out where its native build fails.
    this.load = options.load ?? (() => import('keytar'));
  }

  // Loaded on first use so that commands given a key in the environment never touch the keychain.
  private keytar(): Promise<Keytar> {
    this.loaded ??= this.load().then(
      (m) => m.default ?? m,
      (err: unknown) => {
        throw new KeychainUnavailableError('module_unavailable', err instanceof Error ? err.message : String(err));
      },
    );
    return this.loaded;
  }

  async get(kind: SecretName): Promise<string | null> {
    const k = await this.keytar();
    return withKeychainTimeout(k.getPassword(this.service, ACCOUNTS[kind]), this.timeoutMs);
  }

  async set(kind: SecretName, value: string): Promise<void> {
    if (value.length === 0) throw new Error('An empty secret cannot be stored.');
    const k = await this.keytar();
    await withKeychainTimeout(k.setPassword(this.service, ACCOUNTS[kind], value), this.timeoutMs);
  }

  async delete(kind: SecretName): Promise<boolean> {
    const k = await this.keytar();
    return withKeychainTimeout(k.deletePassword(this.service, ACCOUNTS[kind]), this.timeoutMs);
  }
}
