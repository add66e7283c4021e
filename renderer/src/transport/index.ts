import type { ScanBridgeApi } from '../../../preload/contract';
import { httpTransport } from './http-transport';
import { ipcTransport } from './ipc-transport';
import { takeSessionToken } from './token';
import type { Transport } from './types';

export type { ConnectionState, Transport } from './types';
export { asContractError, isContractError } from './contract-error';

/**
 * Picks the transport at start-up: the preload's `window.scanbridge` when present (Electron),
 * else HTTP to the browser-mode bridge with the session token from the page address.
 */
export function selectTransport(win: Window): Transport | null {
  const api = (win as Window & { scanbridge?: ScanBridgeApi }).scanbridge;
  if (api) return ipcTransport(api);
  const token = takeSessionToken(win.location, win.history, win.sessionStorage);
  if (!token) return null;
  return httpTransport(token, win.location.origin);
}
