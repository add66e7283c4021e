// The patient-facing window: fullscreen on the display the clinic picked (a tablet or pen display),
// showing only the consent screen. It has no preload: it talks to nothing but its page.
import { screen } from 'electron';
import type { BrowserWindow, Display } from 'electron';
import { appUrl } from './app-protocol';
import { secureWindow } from './security';

/** The display with this id, or the first one that is not the primary, or the primary. */
export function pickDisplay(displayId: number | null): Display {
  const all = screen.getAllDisplays();
  const primary = screen.getPrimaryDisplay();
  return all.find((d) => d.id === displayId) ?? all.find((d) => d.id !== primary.id) ?? primary;
}

/**
 * Opens the patient display on a chosen display. The window is created at that display's bounds
 * and only then made fullscreen: fullscreen goes to whichever display the window is on.
 */
export function createPatientDisplayWindow(options: { displayId: number | null; preload?: string }): BrowserWindow {
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
    ...(options.preload ? { preload: options.preload } : {}),
  });
  win.setBounds(display.bounds);
  win.once('ready-to-show', () => {
    win.setFullScreen(true);
    win.show();
  });
  void win.loadURL(appUrl('/patient-display'));
  return win;
}
