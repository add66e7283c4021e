import { KeychainUnavailableError } from './keychain-errors';
import type { SecretName, SecretStore } from './secret-store';

/**
 * The OS keychain, or `fallback` when the keychain's native module is not installed at all (an
 * optional dependency that could not be built). Other keychain failures (no daemon, locked) are
 * not a reason to switch: they pass on, and the app keeps the key for the session.
 */
export class FallbackSecretStore implements SecretStore {
  private useFallback = false;

  constructor(
    private readonly primary: SecretStore,
    private readonly fallback: SecretStore,
  ) {}

  get(kind: SecretName): Promise<string | null> {
    return this.call((s) => s.get(kind));
  }

  set(kind: SecretName, value: string): Promise<void> {
    return this.call((s) => s.set(kind, value));
  }

  delete(kind: SecretName): Promise<boolean> {
    return this.call((s) => s.delete(kind));
  }

  private async call<T>(op: (s: SecretStore) => Promise<T>): Promise<T> {
    if (!this.useFallback) {
      try {
        return await op(this.primary);
      } catch (err) {
        if (!(err instanceof KeychainUnavailableError && err.problem === 'module_unavailable')) throw err;
        // A module that failed to load will not load later in this process.
        this.useFallback = true;
      }
    }
    return op(this.fallback);
  }
}
