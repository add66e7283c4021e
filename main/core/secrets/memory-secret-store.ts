import type { SecretName, SecretStore } from './secret-store';

/**
 * An in-memory SecretStore for unit tests of code that *uses* a SecretStore. It proves nothing
 * about the OS keychain: that is tested against a real keyring.
 */
export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<SecretName, string>();

  constructor(initial: Partial<Record<SecretName, string>> = {}) {
    for (const [k, v] of Object.entries(initial) as [SecretName, string][]) this.values.set(k, v);
  }

  async get(kind: SecretName): Promise<string | null> {
    return this.values.get(kind) ?? null;
  }

  async set(kind: SecretName, value: string): Promise<void> {
    this.values.set(kind, value);
  }

  async delete(kind: SecretName): Promise<boolean> {
    return this.values.delete(kind);
  }
}
