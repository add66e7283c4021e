// The Electron security checklist in one place: every window is made by secureWindow(), every
// web contents gets the same navigation, window.open, webview and permission rules.
import { BrowserWindow, app, shell } from 'electron';
import type { BrowserWindowConstructorOptions, Session, WebContents } from 'electron';
import { externalUrlAllowed, hostsOf, isAppUrl } from './policy';

/** The web preferences every window gets; callers may only add a preload script. */
function securePreferences(
  preload: string | undefined,
): NonNullable<BrowserWindowConstructorOptions['webPreferences']> {
  return {
    ...(preload ? { preload } : {}),
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
    if (!isAppUrl(event.url)) event.preventDefault();
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

/** Applies hardenContents to every web contents the app ever creates (belt and braces for ones made elsewhere). */
export function hardenEveryContents(): void {
  app.on('web-contents-created', (_event, contents) => hardenContents(contents));
}

export type SecureWindowOptions = Omit<BrowserWindowConstructorOptions, 'webPreferences'> & { preload?: string };

/** The only way this app makes a window: the secure preferences are not negotiable. */
export function secureWindow(options: SecureWindowOptions): BrowserWindow {
  const { preload, ...rest } = options;
  return new BrowserWindow({ ...rest, webPreferences: securePreferences(preload) });
}
