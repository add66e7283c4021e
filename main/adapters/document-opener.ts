// `share:handout` on the desktop: the sheet is written to a private folder of the app's data and
// printed through the system's print dialog (windows/print-window.ts), which removes it once the
// dialog is done. Sheets left there longer than a day (the app stopped mid-print) are removed each
// time: they name a patient.
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DocumentOpener } from '../core/agent/host/host-ports';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../core/private-fs';

const KEEP_MS = 86_400_000;

/** The sheet printer as the agent's document opener; `print` shows the dialog for a file and removes it after. */
export function electronDocumentOpener(dataDir: string, print: (path: string) => Promise<boolean>): DocumentOpener {
  const dir = join(dataDir, 'handouts');
  return async ({ name, bytes }) => {
    ensurePrivateDir(dir);
    for (const old of readdirSync(dir)) {
      const path = join(dir, old);
      if (Date.now() - statSync(path).mtimeMs > KEEP_MS) rmSync(path, { force: true });
    }
    const path = join(dir, basename(name));
    writeFileSync(path, bytes, { mode: PRIVATE_FILE_MODE });
    return print(path);
  };
}
