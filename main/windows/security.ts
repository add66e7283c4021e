// The Electron security checklist in one place: every window is made by secureWindow(), every
// web contents gets the same navigation, window.open, webview and permission rules.
import { BrowserWindow, app, shell } from 'electron';
import type { BrowserWindowConstructorOptions, Session, WebContents } from 'electron';
import { externalUrlAllowed, hostsOf, isAppUrl, isPdfViewerUrl, PRINT_PARTITION, printRequestAllowed } from './policy';

/**
 * The web preferences every window gets; callers may only add a preload script, or ask for the
 * built-in PDF viewer (the print window: `plugins` on, in the print session of its own).
 */
function securePreferences(
  preload: string | undefined,
  pdfViewer: boolean,
): NonNullable<BrowserWindowConstructorOptions['webPreferences']> {
  return {
    ...(preload ? { preload } : {}),
    ...(pdfViewer ? { plugins: true, partition: PRINT_PARTITION } : {}),
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
  };
}

let externalHosts: ReadonlySet<string> = new Set();

/** The hosts `openExternal` may open (https only): the configured service's host, e.g. its viewer. */
export function setExternalHosts(urls: readonly string[]): void {
  externalHosts = hostsOf(urls);
}

/** Opens a link in the system browser when it is allow-listed; anything else is dropped. */
export function openExternalSafely(url: string): boolean {
  if (!externalUrlAllowed(url, externalHosts)) return false;
  void shell.openExternal(url);
  return true;
}

/** Applies the per-contents rules: no navigation away, no new windows (allowed links go to the browser), no webviews. */
export function hardenContents(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    // A PDF shown for printing holds the built-in viewer in a subframe; no other frame leaves the app.
    if (!isAppUrl(event.url) && !(!event.isMainFrame && isPdfViewerUrl(event.url))) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    openExternalSafely(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** Session-wide rules: every permission denied, and no request leaves for remote content. */
export function hardenSession(ses: Session): void {
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
  ses.webRequest.onBeforeRequest((details, callback) => {
    const ok =
      isAppUrl(details.url) ||
      details.url.startsWith('devtools:') ||
      details.url.startsWith('data:') ||
      details.url.startsWith('blob:');
    callback({ cancel: !ok });
  });
}

/**
 * The print session's rules: every permission denied, and no request but for the sheets being
 * printed (their file URLs, in `sheets`) and the PDF viewer's own pages: nothing remote.
 */
export function hardenPrintSession(ses: Session, sheets: ReadonlySet<string>): void {
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
  ses.webRequest.onBeforeRequest((details, callback) => {
    callback({ cancel: !printRequestAllowed(details.url, sheets) });
  });
}

/** Applies hardenContents to every web contents the app ever creates (belt and braces for ones made elsewhere). */
export function hardenEveryContents(): void {
  app.on('web-contents-created', (_event, contents) => hardenContents(contents));
}

export type SecureWindowOptions = Omit<BrowserWindowConstructorOptions, 'webPreferences'> & {
  preload?: string;
  /** Shows a PDF with the built-in viewer, in the print session (hardenPrintSession). */
  pdfViewer?: boolean;
};

/** The only way this app makes a window: the secure preferences are not negotiable. */
export function secureWindow(options: SecureWindowOptions): BrowserWindow {
  const { preload, pdfViewer, ...rest } = options;
  return new BrowserWindow({ ...rest, webPreferences: securePreferences(preload, pdfViewer ?? false) });
}
