// Where the desktop app finds its own files, packaged or run from the repository: the bundle in
// main/.build/, the built renderer, the tray images.
import { app } from 'electron';
import { join } from 'node:path';
import type { AgentStatus } from '../../preload/contract/vocabulary';

export type AppPaths = {
  /** The folder with the built renderer (index.html and assets). */
  rendererDir: string;
  /** The bundled preload script of the main window. */
  preload: string;
  /** The bundled preload of the patient display (consent methods only). */
  patientPreload: string;
  trayIcon: (state: AgentStatus) => string;
  appIcon: string;
};

/** Paths relative to the app root (the asar in a package, the repository in development). */
export function appPaths(): AppPaths {
  const root = app.getAppPath();
  return {
    rendererDir: join(root, 'renderer', 'dist'),
    preload: join(root, 'main', '.build', 'preload.cjs'),
    patientPreload: join(root, 'main', '.build', 'patient-preload.cjs'),
    trayIcon: (state) => join(root, 'assets', 'tray', `${state}.png`),
    appIcon: join(root, 'assets', 'icon.png'),
  };
}
