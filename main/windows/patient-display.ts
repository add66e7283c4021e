// The patient-facing window: full screen on the display the clinic picked (a tablet or pen
// display), showing only the consent page. Its own preload exposes the consent session's methods
// and nothing else; main refuses every other method from it. It follows displays being plugged in
// and out, and only the operator closes it (or quitting the app: Electron cancels a quit when a
// window refuses to close).
import { screen } from 'electron';
import type { BrowserWindow, Display } from 'electron';
import type { DisplayInfo } from '../../preload/contract';
import type { PatientDisplayPort } from '../core/consent/desk';
import { appUrl } from './app-protocol';
import { secureWindow } from './security';

/** The display with this id, or the first one that is not the primary, or the primary. */
export function pickDisplay(displayId: number | null): Display {
  const all = screen.getAllDisplays();
  const primary = screen.getPrimaryDisplay();
  return all.find((d) => d.id === displayId) ?? all.find((d) => d.id !== primary.id) ?? primary;
}

/**
 * Moves the window to a display: out of full screen first (full screen belongs to whichever display
 * the window is on), then to the display's bounds, and only then full screen and kiosk again.
 */
function placeOn(win: BrowserWindow, display: Display): void {
  win.setKiosk(false);
  win.setFullScreen(false);
  win.setBounds(display.bounds);
  win.setFullScreen(true);
  win.setKiosk(true);
}

/**
 * Opens the patient display on a chosen display. The window is created at that display's bounds
 * and only then made fullscreen: fullscreen goes to whichever display the window is on.
 */
export function createPatientDisplayWindow(options: { displayId: number | null; preload: string }): BrowserWindow {
  const display = pickDisplay(options.displayId);
  const { x, y, width, height } = display.bounds;
  const win = secureWindow({
    x,
    y,
    width,
    height,
    show: false,
    frame: false,
    autoHideMenuBar: true,
    title: 'ScanBridge',
    backgroundColor: '#ffffff',
    preload: options.preload,
  });
  win.setBounds(display.bounds);
  win.once('ready-to-show', () => {
    win.setFullScreen(true);
    win.setKiosk(true);
    win.show();
  });
  void win.loadURL(appUrl('/index.html#/patient'));
  return win;
}

/** The desktop's patient display: one window, kept on the chosen display. */
export function desktopPatientDisplay(options: {
  preload: string;
  displayId: () => number | null;
  /** True once the app is quitting: the window then lets itself close. */
  isQuitting: () => boolean;
}): PatientDisplayPort & { contentsId(): number | null } {
  let win: BrowserWindow | null = null;
  let closing = false;

  const follow = (): void => {
    if (!win || win.isDestroyed()) return;
    const target = pickDisplay(options.displayId());
    const here = screen.getDisplayMatching(win.getBounds());
    if (here.id !== target.id) placeOn(win, target);
  };
  screen.on('display-added', follow);
  screen.on('display-removed', follow);
  screen.on('display-metrics-changed', follow);

  return {
    async open() {
      if (!win || win.isDestroyed()) {
        closing = false;
        win = createPatientDisplayWindow({ displayId: options.displayId(), preload: options.preload });
        // The patient cannot leave it: closing is the operator's (close() below) or the app's quit.
        win.on('close', (e) => {
          if (!closing && !options.isQuitting()) e.preventDefault();
        });
        win.on('closed', () => {
          win = null;
        });
      } else {
        follow();
      }
      return { url: null };
    },
    close() {
      if (!win || win.isDestroyed()) return;
      closing = true;
      win.close();
    },
    displays(): DisplayInfo[] {
      const primary = screen.getPrimaryDisplay().id;
      return screen.getAllDisplays().map((d) => ({
        id: d.id,
        label: d.label || `#${d.id}`,
        primary: d.id === primary,
        width: d.size.width,
        height: d.size.height,
      }));
    },
    contentsId: () => (win && !win.isDestroyed() ? win.webContents.id : null),
  };
}
