// `folders:pick`: the OS folder dialog, attached to the main window when there is one.
import { dialog } from 'electron';
import type { BrowserWindow } from 'electron';
import type { FolderPicker } from '../core/agent/host/host-ports';

/** A FolderPicker over Electron's open dialog (folders only). */
export function electronFolderPicker(parent: () => BrowserWindow | null): FolderPicker {
  return async () => {
    const win = parent();
    const options = { properties: ['openDirectory' as const, 'dontAddToRecent' as const], title: 'ScanBridge' };
    const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    return result.canceled ? null : (result.filePaths[0] ?? null);
  };
}
