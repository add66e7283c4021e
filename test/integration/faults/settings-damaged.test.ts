// A settings file damaged on disk (cut short, garbled), then a real `scanbridge` process: the
// damage is said on the command line in the terminal's language, the last good copy is put back
// (the clinic's watch folders are still there), the damaged file is kept aside, and without a good
// copy the words say the settings are back to their defaults.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newWatchFolder, openSettingsStore, readSettingsDamage } from '@main/core/settings';
import { cliBin, repoRoot } from '@support/repo-paths';

const tmp = mkdtempSync(join(tmpdir(), 'sb-settings-damaged-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Run = { code: number | null; stdout: string; stderr: string };

/** `scanbridge doctor` against an address nothing answers: it reads the settings first, then fails fast. */
function doctor(configDir: string, lang: string): Promise<Run> {
  const child = spawn(process.execPath, [cliBin, 'doctor'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      SCANBRIDGE_CONFIG_DIR: configDir,
      SCANBRIDGE_DATA_DIR: join(configDir, '..', 'data'),
      SCANBRIDGE_API_URL: 'http://127.0.0.1:9/api/v1',
      SCANBRIDGE_API_KEY: 'cbct_live_nothinghere',
      LANG: lang,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

function clinicSettings(name: string): { dir: string; file: string; watched: string } {
  const dir = join(tmp, name, 'config');
  const watched = join(tmp, name, 'scanner-export');
  mkdirSync(watched, { recursive: true });
  const store = openSettingsStore({ cwd: dir });
  store.update({ language: 'es', watch_folders: [newWatchFolder({ path: watched })] });
  return { dir, file: store.path, watched };
}

describe('a damaged settings file', () => {
  it('is said on the command line, set aside, and the last good copy put back', async () => {
    const { dir, file, watched } = clinicSettings('restored');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.slice(0, Math.floor(text.length / 2)));

    const r = await doctor(dir, 'es_CL.UTF-8');
    expect(r.stderr).toMatch(
      /El archivo de ajustes estaba dañado: se apartó como \S+settings\.corrupt-\d+\.json y se restauró la última copia buena \(guardada el [\d-]+ [\d:]+ UTC\)\. Revise las carpetas vigiladas y el receptor DICOM\./,
    );
    const after = openSettingsStore({ cwd: dir }).get();
    expect(after.watch_folders.map((f) => f.path)).toEqual([watched]);
    expect(after.language).toBe('es');
    expect(readdirSync(dir).filter((n) => n.startsWith('settings.corrupt-'))).toHaveLength(1);
    // The window hears of it until staff dismiss it.
    expect(readSettingsDamage(dir)).toMatchObject({ restored: true });

    const again = await doctor(dir, 'es_CL.UTF-8');
    expect(again.stderr).not.toMatch(/dañado/);
  });

  it('without a good copy: said, and the settings start from their defaults', async () => {
    const { dir, file } = clinicSettings('lost');
    rmSync(join(dir, 'settings.last-good.json'));
    writeFileSync(file, '\u0000\u0000garbled');

    const r = await doctor(dir, 'en_US.UTF-8');
    expect(r.stderr).toMatch(
      /The settings file was damaged and no good copy was found: it was set aside as \S+settings\.corrupt-\d+\.json and the settings are back to their defaults\. Set up the watch folders and the DICOM listener again\./,
    );
    expect(openSettingsStore({ cwd: dir }).get().watch_folders).toEqual([]);
    expect(existsSync(join(dir, 'settings.damaged.json'))).toBe(true);
  });
});
