import { describe, expect, it } from 'vitest';
import {
  classifyKeychainError,
  keychainModuleAdvice,
  KeychainUnavailableError,
  toKeychainError,
  withKeychainTimeout,
} from '@main/core/secrets/keychain-errors';

describe('keychain failure classification', () => {
  // Messages as libsecret/keytar print them on Linux (measured: TOOLCHAIN.md and the keychain test).
  it.each([
    ['Cannot autolaunch D-Bus without X11 $DISPLAY', 'no_dbus'],
    ['The name org.freedesktop.secrets was not provided by any .service files', 'no_keyring_service'],
    ['Error calling StartServiceByName for org.freedesktop.secrets: Timeout was reached', 'timeout'],
    ['Object does not exist at path “/org/freedesktop/secrets/collection/login”', 'locked'],
    ['Cannot create an item in a locked collection', 'locked'],
    ['something else entirely', 'unknown'],
  ])('"%s" → %s', (message, problem) => {
    expect(classifyKeychainError(new Error(message))).toBe(problem);
  });

  it('gives each problem a message that says what to do, including the environment variable', () => {
    for (const p of ['no_dbus', 'no_keyring_service', 'timeout', 'locked', 'module_unavailable', 'unknown'] as const) {
      const e = new KeychainUnavailableError(p, 'detail');
      expect(e.code).toBe('keychain_unavailable');
      expect(e.message).toContain('SCANBRIDGE_API_KEY');
      expect(e.message).not.toContain('detail');
    }
  });

  it('says how to get the keychain module back in the words of each operating system', () => {
    const windows = keychainModuleAdvice('win32');
    expect(windows).toContain('Windows Credential Manager');
    expect(windows).not.toMatch(/libsecret|apt/);
    expect(keychainModuleAdvice('darwin')).toContain('macOS login keychain');
    expect(keychainModuleAdvice('darwin')).not.toContain('libsecret');
    expect(keychainModuleAdvice('linux')).toContain('Install libsecret-1-dev');
    for (const p of ['win32', 'darwin', 'linux'] as const)
      expect(keychainModuleAdvice(p)).toContain('SCANBRIDGE_API_KEY');
    // The error carries the advice of the system it runs on.
    expect(new KeychainUnavailableError('module_unavailable', 'x').message).toBe(keychainModuleAdvice());
  });

  it('wraps library errors once', () => {
    const e = toKeychainError(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY'));
    expect(e.problem).toBe('no_dbus');
    expect(e.detail).toContain('autolaunch');
    expect(toKeychainError(e)).toBe(e);
  });
});

describe('withKeychainTimeout', () => {
  it('passes a prompt answer through', async () => {
    await expect(withKeychainTimeout(Promise.resolve('v'), 100)).resolves.toBe('v');
  });

  it('gives up on a call that hangs, fast, with problem "timeout"', async () => {
    const t = Date.now();
    const err = await withKeychainTimeout(new Promise(() => undefined), 150).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KeychainUnavailableError);
    expect((err as KeychainUnavailableError).problem).toBe('timeout');
    expect(Date.now() - t).toBeLessThan(1000);
  });

  it('classifies a failing call', async () => {
    const err = await withKeychainTimeout(
      Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')),
      500,
    ).catch((e: unknown) => e);
    expect((err as KeychainUnavailableError).problem).toBe('no_dbus');
  });
});
