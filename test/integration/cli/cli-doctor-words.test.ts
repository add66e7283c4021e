// `scanbridge doctor` on a plain-http service, as a clinic's test set-up has it: TLS is said as not
// used (not "not checked" as if an earlier step had failed), and its figures carry the terminal
// language's decimal mark. The real bin against a real emulator.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { cliBin, repoRoot } from '@support/repo-paths';

let emu: EmulatorProcess;
let tmp: string;
beforeAll(async () => {
  emu = await EmulatorProcess.start();
  tmp = mkdtempSync(join(tmpdir(), 'sb-doctor-words-'));
});
afterAll(async () => {
  await emu.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

function doctor(lang: string): Promise<{ code: number | null; stdout: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LANG: lang,
    LC_ALL: '',
    LC_MESSAGES: '',
    SCANBRIDGE_API_URL: emu.info.base_url,
    SCANBRIDGE_API_KEY: emu.info.keys.pro,
    SCANBRIDGE_DATA_DIR: join(tmp, 'data'),
    SCANBRIDGE_CONFIG_DIR: join(tmp, 'config'),
  };
  const child = spawn(process.execPath, [cliBin, 'doctor'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.resume();
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

describe('scanbridge doctor on plain http', () => {
  it('says TLS is not used, and the speed with a decimal comma, in Spanish', async () => {
    const r = await doctor('es_CL.UTF-8');
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^ {2}- {5}TLS +no se usa \(http simple\)$/m);
    expect(r.stdout).not.toContain('no se probó');
    // Loopback may pass 1000 Mbit/s: digits may be grouped (a point in Spanish, a comma in English).
    expect(r.stdout).toMatch(/Velocidad de subida +\d[\d.]*,\d\d MB\/s \(\d[\d.]*,\d Mbit\/s\)/);
  });

  it('says the same in English, with a decimal point', async () => {
    const r = await doctor('en_US.UTF-8');
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^ {2}- {5}TLS +not used \(plain http\)$/m);
    expect(r.stdout).not.toContain('not checked');
    expect(r.stdout).toMatch(/Upload speed +\d[\d,]*\.\d\d MB\/s \(\d[\d,]*\.\d Mbit\/s\)/);
  });
});
