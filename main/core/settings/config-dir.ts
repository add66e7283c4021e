import { homedir } from 'node:os';
import { join } from 'node:path';

/** Folder name of the app's data; the Electron app's userData folder has the same name. */
export const APP_DIR_NAME = 'ScanBridge';
/** The settings file is `<config dir>/settings.json`. */
export const SETTINGS_FILE_NAME = 'settings';

/**
 * Where the desktop app keeps its settings (Electron's userData), so the CLI and the app share one
 * file: Linux `$XDG_CONFIG_HOME/ScanBridge`, macOS `~/Library/Application Support/ScanBridge`,
 * Windows `%APPDATA%\ScanBridge`.
 */
export function defaultConfigDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_DIR_NAME);
  if (platform === 'win32') return join(env['APPDATA'] || join(home, 'AppData', 'Roaming'), APP_DIR_NAME);
  return join(env['XDG_CONFIG_HOME'] || join(home, '.config'), APP_DIR_NAME);
}

/** The config folder: an explicit one (tests), else SCANBRIDGE_CONFIG_DIR, else the app's default. */
export function resolveConfigDir(options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const env = options.env ?? process.env;
  return options.cwd ?? (env['SCANBRIDGE_CONFIG_DIR'] || defaultConfigDir(env));
}
