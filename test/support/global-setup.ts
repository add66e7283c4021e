import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEmulatorBundle } from './emulator/emulator-bundle';

/**
 * Before any suite runs: the emulator's bundle (emulator-bundle.ts), the scratch folder for test
 * artifacts, and a private temp folder for the whole run. Test processes (forked after this) and
 * everything they start inherit TMPDIR, so what a test, a killed child or a library leaves in
 * os.tmpdir() is removed with the folder at the end and nothing stays in the system's temp folder.
 */
export default async function setup(): Promise<() => void> {
  await buildEmulatorBundle();
  mkdirSync(fileURLToPath(new URL('../.artifacts', import.meta.url)), { recursive: true });
  const previous = process.env['TMPDIR'];
  // A short name (D-Bus sockets live below it; a Unix socket path holds at most 107 bytes), and 0711
  // so a test that runs a command as an unprivileged user can reach its own folder inside.
  const privateTmp = mkdtempSync(join(tmpdir(), 'v-'));
  chmodSync(privateTmp, 0o711);
  process.env['TMPDIR'] = privateTmp;
  return () => {
    // tsx keeps its compile cache in the temp folder; anything else left is a test's own leftover.
    const left = readdirSync(privateTmp).filter((n) => !n.startsWith('tsx-'));
    if (left.length > 0 && process.env['SCANBRIDGE_REPORT_TMP_LEFTOVERS'])
      process.stderr.write(`temp files left by tests (removed): ${left.join(', ')}\n`);
    rmSync(privateTmp, { recursive: true, force: true });
    if (previous === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previous;
  };
}
