// The API keys the app holds: one live and one sandbox key, in the OS keychain when it answers,
// else in memory for this session only (the app stays usable without a keyring service). Key
// values never go to the settings file, to logs or to the window: the window sees a four-character hint.
import type { KeyKind, KeychainState, KeySlot } from '../../../../preload/contract';
import { keyKindOf } from '../../api/http';
import type { KeychainUnavailableError } from '../../secrets/keychain-errors';
import { toKeychainError } from '../../secrets/keychain-errors';
import type { SecretStore } from '../../secrets/secret-store';
import type { Logger } from '../../log';

/** How often an unavailable keychain is asked again (each try may cost its time-out). */
const REPROBE_MS = 30_000;

type Held = { value: string; sessionOnly: boolean };

function keychainState(e: KeychainUnavailableError): KeychainState {
  const reason =
    e.problem === 'no_dbus'
      ? 'no_dbus'
      : e.problem === 'no_keyring_service'
        ? 'no_daemon'
        : e.problem === 'timeout'
          ? 'timeout'
          : e.problem === 'locked'
            ? 'locked'
            : e.problem === 'module_unavailable'
              ? 'no_module'
              : 'error';
  return { available: false, reason, message: e.message };
}

/** Keeps the keys in memory after the first read, so the keychain is asked once per key. */
export class KeyManager {
  private readonly held = new Map<KeyKind, Held>();
  private keychain: KeychainState = { available: true };
  private lastProbe = 0;

  constructor(
    private readonly store: SecretStore,
    private readonly log: Logger,
  ) {}

  /** Reads both keys from the keychain; `sessionKey` (SCANBRIDGE_API_KEY) is held for this session only. */
  async load(sessionKey?: string): Promise<void> {
    for (const kind of ['live', 'sandbox'] as const) {
      try {
        const value = await this.store.get(kind);
        if (value) this.held.set(kind, { value, sessionOnly: false });
      } catch (e) {
        this.markUnavailable(e);
        break;
      }
    }
    if (sessionKey) this.held.set(keyKindOf(sessionKey), { value: sessionKey, sessionOnly: true });
  }

  get keychainState(): KeychainState {
    return this.keychain;
  }

  /** The key of that kind, or null. */
  value(kind: KeyKind): string | null {
    return this.held.get(kind)?.value ?? null;
  }

  has(kind: KeyKind): boolean {
    return this.held.has(kind);
  }

  slot(kind: KeyKind): KeySlot {
    const h = this.held.get(kind);
    return { present: h !== undefined, hint: h ? h.value.slice(-4) : null, session_only: h?.sessionOnly ?? false };
  }

  /**
   * Stores a (verified) key under the kind its prefix says: in the keychain, or, when there is
   * none, in memory for this session. Returns the kind.
   */
  async save(key: string): Promise<KeyKind> {
    const kind = keyKindOf(key);
    let sessionOnly = true;
    if (this.shouldTryKeychain()) {
      try {
        await this.store.set(kind, key);
        this.keychain = { available: true };
        sessionOnly = false;
      } catch (e) {
        this.markUnavailable(e);
      }
    }
    this.held.set(kind, { value: key, sessionOnly });
    this.log.info(sessionOnly ? 'key saved for this session only (no keychain)' : 'key saved in the keychain', {
      kind,
    });
    return kind;
  }

  /** Forgets a key, in the keychain too. A keychain that cannot be reached makes this fail (the key would survive). */
  async remove(kind: KeyKind): Promise<void> {
    const h = this.held.get(kind);
    if (h && !h.sessionOnly) {
      try {
        await this.store.delete(kind);
      } catch (e) {
        this.markUnavailable(e);
        throw toKeychainError(e);
      }
    }
    this.held.delete(kind);
  }

  private shouldTryKeychain(): boolean {
    if (this.keychain.available) return true;
    // A keychain module that is not installed does not appear while the app runs.
    if (this.keychain.reason === 'no_module') return false;
    return Date.now() - this.lastProbe >= REPROBE_MS;
  }

  private markUnavailable(e: unknown): void {
    const err = toKeychainError(e);
    const before = this.keychain;
    this.keychain = keychainState(err);
    this.lastProbe = Date.now();
    // Said once per cause, not at every key. The library's detail can help support; it never contains a key.
    if (before.available || this.keychain.available || before.reason !== this.keychain.reason) {
      // Without the optional keytar module the app works with keys kept for the session: an
      // expected set-up, not a warning, and Node's "Require stack" of file paths helps nobody.
      if (err.problem === 'module_unavailable')
        this.log.info('keychain support is not installed: keys are kept for this session only');
      else this.log.warn('keychain unavailable', { code: err.problem });
    }
  }
}
