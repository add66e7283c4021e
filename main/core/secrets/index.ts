// API keys: the SecretStore port and the keychain failure vocabulary.
export * from './detect';
export * from './keychain-errors';
export * from './memory-secret-store';
export type * from './secret-store';
export * from './encrypted-file-secret-store';
export * from './fallback-secret-store';
