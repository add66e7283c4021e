import { t, type Language } from '../i18n';

/** Why the OS keychain cannot be used. */
export type KeychainProblem =
  'no_dbus' | 'no_keyring_service' | 'timeout' | 'locked' | 'module_unavailable' | 'unknown';

/** The missing-module advice for `platform` (Linux's words for the other Unix systems). */
export function keychainModuleAdvice(platform: NodeJS.Platform = process.platform, lang: Language = 'en'): string {
  const os = platform === 'win32' || platform === 'darwin' ? platform : 'linux';
  return `${t(lang, `core.keychain.module.${os}`)} ${t(lang, 'core.keychain.envHint')}`;
}

/**
 * Why the keychain cannot be used, in `lang`, with what to do instead. The missing-module advice
 * speaks each operating system's own keychain: Windows keeps keys in Credential Manager, macOS in
 * the login keychain, Linux in the Secret Service (GNOME Keyring, KWallet) through libsecret.
 */
export function keychainWords(problem: KeychainProblem, timeoutMs: number, lang: Language): string {
  if (problem === 'module_unavailable') return keychainModuleAdvice(process.platform, lang);
  const text = t(lang, `core.keychain.${problem}`, { seconds: Math.round(timeoutMs / 1000) });
  return `${text} ${t(lang, 'core.keychain.envHint')}`;
}

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
    super(keychainWords(problem, timeoutMs, 'en'));
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
