import type { KeyKind } from '../api/sandbox';

/**
 * Where the API keys live (the OS keychain in the app). One key per kind; values are never
 * logged or written to the settings file.
 */
export type SecretStore = {
  /** The stored key of that kind, or null when none is stored. */
  get(kind: KeyKind): Promise<string | null>;
  set(kind: KeyKind, value: string): Promise<void>;
  /** Removes the key; true when one was stored. */
  delete(kind: KeyKind): Promise<boolean>;
};

export type { KeyKind };
