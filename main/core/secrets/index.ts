// API keys: the SecretStore port and the keychain failure vocabulary.
export * from './detect';
export * from './keychain-errors';
export * from './memory-secret-store';
export type * from './secret-store';
