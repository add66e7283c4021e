import type { KeysStatus } from '../../../preload/contract';

/** True when a key is held (in the keychain or for this session). */
export function hasAnyKey(status: KeysStatus | undefined): boolean {
  return !!status && (status.live.present || status.sandbox.present);
}

/** The kind a pasted key will be stored as, from its prefix (API v1 §5: sandbox keys start with cbct_test_). */
export function kindOfKey(key: string): 'live' | 'sandbox' {
  return key.trim().startsWith('cbct_test_') ? 'sandbox' : 'live';
}
