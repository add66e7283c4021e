// The front-desk window. Closing it hides it (the agent keeps working from the tray) unless the
// app is really quitting.
import type { BrowserWindow } from 'electron';
import { appUrl } from './app-protocol';
import { secureWindow } from './security';

export type MainWindowOptions = {
  preload: string;
  icon?: string;
  /** Lets the close button really close (when quitting). */
  isQuitting: () => boolean;
};

/** Creates the main window, shown once its first paint is ready. */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const win = secureWindow({
    width: 1280,
    height: 800,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'ScanBridge',
    backgroundColor: '#ffffff',
    ...(options.icon ? { icon: options.icon } : {}),
    autoHideMenuBar: true,
    preload: options.preload,
  });
  win.once('ready-to-show', () => win.show());
  win.on('close', (event) => {
    if (options.isQuitting()) return;
    event.preventDefault();
    win.hide();
  });
  void win.loadURL(appUrl('/'));
  return win;
}
