// The proxy saved in Settings → Network as a route: its address from the settings file, its user
// and password from the keychain (the same store as the API keys). The CLI, `serve` and the desktop
// app read it the same way.
import { KeychainUnavailableError } from '../secrets/keychain-errors';
import type { SecretStore } from '../secrets/secret-store';
import { type ProxyRoute, proxyRoute } from './network';

/** The proxy's login as kept in the keychain (either may be missing). */
export type ProxyLogin = { user: string | null; password: string | null };

/** The route for the Settings proxy at `address`, with the login filled in. */
export function settingsProxyRoute(address: string, login: ProxyLogin): ProxyRoute {
  const route = proxyRoute(address, 'settings');
  if (login.user) {
    route.url.username = encodeURIComponent(login.user);
    route.url.password = encodeURIComponent(login.password ?? '');
  }
  return route;
}

/** Reads the proxy's login from the keychain. Throws KeychainUnavailableError when it cannot be asked. */
export async function readProxyLogin(store: SecretStore): Promise<ProxyLogin> {
  const user = await store.get('proxy_user');
  const password = user ? await store.get('proxy_password') : null;
  return { user, password };
}

/**
 * The Settings proxy for a command: null when none is saved. When the keychain cannot be asked,
 * the proxy is used without a login and `problem` is the keychain's error (the proxy will then
 * refuse, in words).
 */
export async function settingsProxyFor(
  address: string | null,
  secrets: () => SecretStore | Promise<SecretStore>,
): Promise<{ route: ProxyRoute | null; problem: KeychainUnavailableError | null }> {
  if (!address) return { route: null, problem: null };
  try {
    return { route: settingsProxyRoute(address, await readProxyLogin(await secrets())), problem: null };
  } catch (e) {
    if (!(e instanceof KeychainUnavailableError)) throw e;
    return {
      route: settingsProxyRoute(address, { user: null, password: null }),
      problem: e,
    };
  }
}
