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

/**
 * The in-memory session of the window that prints the patient's sheet. Apart from the default
 * session because that one refuses everything but app:// (security.ts), which would also refuse
 * the sheet's file and the PDF viewer's own pages.
 */
export const PRINT_PARTITION = 'scanbridge-print';

/** Chromium's PDF viewer, built into Electron, runs as this extension inside the printing window. */
const PDF_VIEWER_ID = 'mhjfbmdgcfjbbpaeojofohoefgiehjai';

/** True for the built-in PDF viewer's own pages (a subframe of a window showing a PDF). */
export function isPdfViewerUrl(url: string): boolean {
  try {
    // Not `origin`: the URL parser gives no origin for a scheme it does not know ('null').
    const u = new URL(url);
    return u.protocol === 'chrome-extension:' && u.host === PDF_VIEWER_ID && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}

/**
 * What the printing window may load: the sheets being printed (their exact file URLs), the PDF
 * viewer's pages and Chromium's own resources for it, and data/blob URLs it makes. Nothing remote
 * (http, https, ws…) and no other file.
 */
export function printRequestAllowed(url: string, sheets: ReadonlySet<string>): boolean {
  if (sheets.has(url) || isPdfViewerUrl(url)) return true;
  try {
    const { protocol } = new URL(url);
    return protocol === 'chrome:' || protocol === 'data:' || protocol === 'blob:';
  } catch {
    return false;
  }
}
