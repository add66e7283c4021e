// Start at login, hidden (to the tray). Windows and macOS through Electron's login items; Linux
// desktops through an XDG autostart entry, which Electron does not manage.
import { app } from 'electron';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const HIDDEN_FLAG = '--hidden';

function autostartFile(): string {
  const config = process.env['XDG_CONFIG_HOME'];
  return join(
    config && config.startsWith('/') ? config : join(homedir(), '.config'),
    'autostart',
    'scanbridge.desktop',
  );
}

/** Registers (or removes) the app as a login item that starts hidden. */
export function setStartAtLogin(enabled: boolean): void {
  if (process.platform === 'linux') {
    const file = autostartFile();
    if (!enabled) {
      rmSync(file, { force: true });
      return;
    }
    const exec = process.env['APPIMAGE'] ?? process.execPath;
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(
      file,
      `[Desktop Entry]\nType=Application\nName=ScanBridge\nExec="${exec}" ${HIDDEN_FLAG}\nX-GNOME-Autostart-enabled=true\nNoDisplay=false\n`,
    );
    return;
  }
  app.setLoginItemSettings({ openAtLogin: enabled, args: [HIDDEN_FLAG] });
}

/** True when this launch came from the login item (start in the tray, no window). */
export function startedHidden(): boolean {
  if (process.argv.includes(HIDDEN_FLAG)) return true;
  return process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin;
}
