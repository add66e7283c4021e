import type { KeyKind } from '../api/http';

/** The proxy's login, kept beside the API keys (the proxy's address is in the settings file). */
export type ProxySecretName = 'proxy_user' | 'proxy_password';

/** What the keychain holds: the two API keys and the proxy's login. */
export type SecretName = KeyKind | ProxySecretName;

/**
 * Where the API keys and the proxy's login live (the OS keychain in the app). One value per name;
 * values are never logged or written to the settings file.
 */
export type SecretStore = {
  /** The stored value of that name, or null when none is stored. */
  get(kind: SecretName): Promise<string | null>;
  set(kind: SecretName, value: string): Promise<void>;
  /** Removes the value; true when one was stored. */
  delete(kind: SecretName): Promise<boolean>;
};

export type { KeyKind };
