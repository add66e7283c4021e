// Where ScanBridge keeps its own state (upload journals, ledgers) on each operating system.
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The app's data folder: `SCANBRIDGE_DATA_DIR` when set, else the OS convention for per-user app data. */
export function appDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const override = env['SCANBRIDGE_DATA_DIR'];
  if (override) return override;
  if (platform === 'win32') return join(env['APPDATA'] || join(home, 'AppData', 'Roaming'), 'ScanBridge');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'ScanBridge');
  const xdg = env['XDG_DATA_HOME'];
  // XDG says a relative XDG_DATA_HOME is invalid and must be ignored.
  return join(xdg && xdg.startsWith('/') ? xdg : join(home, '.local', 'share'), 'scanbridge');
}
