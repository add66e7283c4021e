// Electron's safeStorage as the core's SecretCipher: the desktop app's way to keep API keys
// encrypted at rest when the keychain module (keytar) is not installed. Usable only after the
// app is ready.
import { safeStorage } from 'electron';
import type { SecretCipher } from '../core/secrets/encrypted-file-secret-store';

/**
 * On Linux without a secret service, safeStorage falls back to `basic_text`, a password written in
 * Chromium's source: that is obfuscation, not encryption, so it counts as unavailable and the key
 * stays in memory for the session instead.
 */
export function safeStorageCipher(): SecretCipher {
  return {
    available: () => {
      if (!safeStorage.isEncryptionAvailable()) return false;
      if (process.platform !== 'linux') return true;
      const backend = safeStorage.getSelectedStorageBackend();
      return backend !== 'basic_text' && backend !== 'unknown';
    },
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (data) => safeStorage.decryptString(data),
  };
}
