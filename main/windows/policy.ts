// What the app's windows may reach, as plain functions (no Electron import, so they are unit-tested
// in Node): our own origin, and the https links of the configured service that open in the browser.

export const APP_SCHEME = 'app';
export const APP_HOST = 'scanbridge';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** The app's own pages, e.g. appUrl('/') or appUrl('/patient-display'). */
export function appUrl(path: string): string {
  return `${APP_ORIGIN}${path.startsWith('/') ? path : `/${path}`}`;
}

/** True for URLs of our own pages (the only IPC senders accepted and the only navigation allowed). */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}

/** The hosts of the configured service addresses (malformed ones give nothing). */
export function hostsOf(urls: readonly string[]): Set<string> {
  const hosts = new Set<string>();
  for (const u of urls) {
    try {
      if (u) hosts.add(new URL(u).host);
    } catch {
      // A malformed address allows nothing.
    }
  }
  return hosts;
}

/** True when `url` may open in the system browser: https, an allowed host, no credentials. */
export function externalUrlAllowed(url: string, hosts: ReadonlySet<string>): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && u.username === '' && u.password === '' && hosts.has(u.host);
  } catch {
    return false;
  }
}

/** An IPC caller is accepted only from the top frame of our own page (not a subframe, not a destroyed frame). */
export function senderFrameAllowed(frame: { url: string; parent: unknown } | null | undefined): boolean {
  return frame !== null && frame !== undefined && frame.parent === null && isAppUrl(frame.url);
}
