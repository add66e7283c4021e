import { KeychainUnavailableError, toKeychainError } from './keychain-errors';
import type { SecretStore } from './secret-store';

export type KeychainStatus = { available: true } | { available: false; error: KeychainUnavailableError };

/**
 * Checks that the keychain answers (a read of the live key) without hanging: stores built on the
 * OS keychain already give up after a short time-out.
 */
export async function detectKeychain(store: SecretStore): Promise<KeychainStatus> {
  try {
    await store.get('live');
    return { available: true };
  } catch (err) {
    return { available: false, error: err instanceof KeychainUnavailableError ? err : toKeychainError(err) };
  }
}
