import type { KeyKind } from '../../../../preload/contract';

/** Prefix of sandbox (test) keys (API-v1.md §5.2). */
export const SANDBOX_KEY_PREFIX = 'cbct_test_';

/** True for a sandbox key: its calls touch test data only and send no e-mail. */
export function isSandboxKey(key: string): boolean {
  return key.trim().startsWith(SANDBOX_KEY_PREFIX);
}

/** The kind of a key, from its prefix. */
export function keyKindOf(key: string): KeyKind {
  return isSandboxKey(key) ? 'sandbox' : 'live';
}
