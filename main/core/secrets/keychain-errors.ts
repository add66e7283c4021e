/** Why the OS keychain cannot be used. */
export type KeychainProblem =
  'no_dbus' | 'no_keyring_service' | 'timeout' | 'locked' | 'module_unavailable' | 'unknown';

const ENV_HINT = 'Or set SCANBRIDGE_API_KEY for this session.';

/**
 * What to do when the keychain module is missing, in the words of each operating system's own
 * keychain: Windows keeps keys in Credential Manager, macOS in the login keychain, Linux in the
 * Secret Service (GNOME Keyring, KWallet) through libsecret.
 */
const MODULE_ADVICE: Partial<Record<NodeJS.Platform, string>> & { linux: string } = {
  win32:
    'The keychain support is not installed with this copy of ScanBridge (the optional keytar module, which keeps API keys in Windows Credential Manager, could not be loaded), so no API key can be saved or read. Reinstall ScanBridge; from a source checkout, run `npm ci` again on a computer with the Visual Studio C++ build tools.',
  darwin:
    'The keychain support is not installed with this copy of ScanBridge (the optional keytar module, which keeps API keys in the macOS login keychain, could not be loaded), so no API key can be saved or read. Reinstall ScanBridge; from a source checkout, run `xcode-select --install`, then `npm ci` again.',
  linux:
    "The keychain support is not installed on this computer (the optional keytar module could not be built, usually because libsecret's development files were missing during `npm ci`), so no API key can be saved or read. Install libsecret-1-dev and run `npm ci` again.",
};

/** The missing-module advice for `platform` (Linux's words for the other Unix systems). */
export function keychainModuleAdvice(platform: NodeJS.Platform = process.platform): string {
  return `${MODULE_ADVICE[platform] ?? MODULE_ADVICE.linux} ${ENV_HINT}`;
}

const MESSAGES: Record<KeychainProblem, (timeoutMs: number) => string> = {
  no_dbus: () =>
    `The system keychain cannot be reached: there is no desktop (D-Bus) session. Sign in to a desktop session. ${ENV_HINT}`,
  no_keyring_service: () =>
    `No keychain service is installed or running (for example GNOME Keyring or KWallet). Install or start one. ${ENV_HINT}`,
  timeout: (ms) =>
    `The system keychain did not answer within ${Math.round(ms / 1000)} s. Check that the keyring service is running and unlocked. ${ENV_HINT}`,
  locked: () =>
    `The system keychain is locked or has no default keyring. Unlock it (sign in again) and retry. ${ENV_HINT}`,
  module_unavailable: () => keychainModuleAdvice(),
  unknown: () => `The system keychain reported an error. ${ENV_HINT}`,
};

/** The OS keychain is not usable; `problem` says why (the UI translates by it). */
export class KeychainUnavailableError extends Error {
  override name = 'KeychainUnavailableError';
  readonly code = 'keychain_unavailable' as const;
  constructor(
    readonly problem: KeychainProblem,
    /** The underlying library's message, for logs. */
    readonly detail: string,
    readonly timeoutMs: number = DEFAULT_KEYCHAIN_TIMEOUT_MS,
  ) {
    super(MESSAGES[problem](timeoutMs));
  }
}

/**
 * Without a keyring daemon the keychain library waits for D-Bus service activation (about 25 s)
 * before failing; calls are raced against this much shorter limit instead.
 */
export const DEFAULT_KEYCHAIN_TIMEOUT_MS = 3000;

const PATTERNS: [RegExp, KeychainProblem][] = [
  [
    /autolaunch D-Bus|DBUS_SESSION_BUS_ADDRESS|Failed to connect to socket|Could not connect|No such file or directory.*bus|X11 \$DISPLAY/i,
    'no_dbus',
  ],
  [
    /not provided by any \.service files|ServiceUnknown|org\.freedesktop\.secrets.*not (found|available)|No such interface/i,
    'no_keyring_service',
  ],
  [/Timeout|timed out|Did not receive a reply|NoReply/i, 'timeout'],
  [/locked|collection\/login|Object does not exist at path|prompt|dismissed|No such secret collection/i, 'locked'],
];

/** Sorts a keychain library failure into a KeychainProblem by its message. */
export function classifyKeychainError(err: unknown): KeychainProblem {
  const message = err instanceof Error ? err.message : String(err);
  for (const [re, problem] of PATTERNS) if (re.test(message)) return problem;
  return 'unknown';
}

/** Wraps a failure of the keychain library into a KeychainUnavailableError. */
export function toKeychainError(err: unknown): KeychainUnavailableError {
  if (err instanceof KeychainUnavailableError) return err;
  return new KeychainUnavailableError(classifyKeychainError(err), err instanceof Error ? err.message : String(err));
}

/** Runs one keychain call, failing with KeychainUnavailableError('timeout') after `timeoutMs`. */
export async function withKeychainTimeout<T>(work: Promise<T>, timeoutMs = DEFAULT_KEYCHAIN_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new KeychainUnavailableError('timeout', `no answer within ${timeoutMs} ms`, timeoutMs)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } catch (err) {
    throw toKeychainError(err);
  } finally {
    clearTimeout(timer);
    // The abandoned call may still fail later; that failure is already reported.
    work.catch(() => undefined);
  }
}
