// `share:handout` on the desktop: the sheet is written to a private folder of the app's data and
// opened with the OS's PDF viewer (shell.openPath), whose print dialog is the system's. Sheets older
// than a day are removed each time (they name a patient).
import { shell } from 'electron';
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DocumentOpener } from '../core/agent/host/host-ports';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../core/private-fs';

const KEEP_MS = 86_400_000;

export function electronDocumentOpener(dataDir: string): DocumentOpener {
  const dir = join(dataDir, 'handouts');
  return async ({ name, bytes }) => {
    ensurePrivateDir(dir);
    for (const old of readdirSync(dir)) {
      const path = join(dir, old);
      if (Date.now() - statSync(path).mtimeMs > KEEP_MS) rmSync(path, { force: true });
    }
    const path = join(dir, basename(name));
    writeFileSync(path, bytes, { mode: PRIVATE_FILE_MODE });
    // openPath answers an error text, or '' once the OS took the file.
    return (await shell.openPath(path)) === '';
  };
}
