// `scanbridge whoami` end to end: the real bin, spawned as a user would run it, against the emulator.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSettingsStore } from '@main/core/settings/store';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { cliBin } from '@support/repo-paths';

const bin = cliBin;
const exec = promisify(execFile);

type Run = { code: number; stdout: string; stderr: string };

describe('scanbridge whoami', () => {
  let emu: EmulatorProcess;
  let tmp: string;

  beforeAll(async () => {
    emu = await EmulatorProcess.start({ timeScale: 0.001 });
    tmp = mkdtempSync(join(tmpdir(), 'scanbridge-cli-whoami-'));
  });
  afterAll(async () => {
    await emu.dispose();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** Runs the CLI with only the given SCANBRIDGE_* variables (and an empty config folder by default). */
  async function whoami(args: string[], vars: Record<string, string>): Promise<Run> {
    const env: NodeJS.ProcessEnv = { ...process.env, SCANBRIDGE_CONFIG_DIR: mkdtempSync(join(tmp, 'cfg-')), ...vars };
    if (!('SCANBRIDGE_API_KEY' in vars)) delete env['SCANBRIDGE_API_KEY'];
    if (!('SCANBRIDGE_API_URL' in vars)) delete env['SCANBRIDGE_API_URL'];
    try {
      const { stdout, stderr } = await exec(process.execPath, [bin, 'whoami', ...args], { cwd: tmp, env });
      return { code: 0, stdout, stderr };
    } catch (e) {
      const err = e as { code?: number; stdout?: string; stderr?: string };
      return { code: err.code ?? -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
    }
  }

  const envFor = (key: string): Record<string, string> => ({
    SCANBRIDGE_API_URL: emu.info.base_url,
    SCANBRIDGE_API_KEY: key,
  });

  it('prints plan, scopes, storage and rate-limit state for a live key', async () => {
    const r = await whoami([], envFor(emu.info.keys.pro));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Plan\s+pro$/m);
    expect(r.stdout).toMatch(/^Scopes\s+.*exams:read, exams:write/m);
    expect(r.stdout).toMatch(/^Storage\s+0 B of 200 GB used \(0%\)$/m);
    expect(r.stdout).toMatch(/^Exams\s+0 of 2000$/m);
    expect(r.stdout).toMatch(/^Rate limit\s+\d+ of 1000 requests left this hour/m);
    expect(r.stdout).toMatch(/^Key\s+live; from SCANBRIDGE_API_KEY$/m);
    expect(r.stdout).not.toContain(emu.info.keys.pro);
  });

  it('prints one JSON object with --json', async () => {
    const r = await whoami(['--json'], envFor(emu.info.keys.readonly));
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      plan: 'pro',
      scopes: ['exams:read', 'account:read'],
      sandbox: false,
      key_kind: 'live',
      key_source: 'env',
      base_url: emu.info.base_url,
      storage: { used_bytes: 0, used_percent: 0 },
      rate_limit: { limit: 1000 },
    });
    const rate = out['rate_limit'] as { remaining: number; reset: string };
    expect(rate.remaining).toBeLessThan(1000);
    expect(Number.isNaN(Date.parse(rate.reset))).toBe(false);
    expect(r.stdout).not.toContain(emu.info.keys.readonly);
  });

  it('says plainly when the key is a sandbox key', async () => {
    const human = await whoami([], envFor(emu.info.keys.sandbox));
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Key\s+SANDBOX/m);
    const json = JSON.parse((await whoami(['--json'], envFor(emu.info.keys.sandbox))).stdout) as Record<
      string,
      unknown
    >;
    expect(json).toMatchObject({ sandbox: true, key_kind: 'sandbox', test_mode: true });
  });

  it('a rejected key exits 1 with a message fit to show, and a JSON error with --json', async () => {
    const human = await whoami([], envFor('cbct_live_ffffffffffffffffffffffffffffffff'));
    expect(human.code).toBe(1);
    expect(human.stderr).toContain('The API key was rejected. Check it in Settings.');
    const json = await whoami(['--json'], envFor('cbct_live_ffffffffffffffffffffffffffffffff'));
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      error: { code: 'unauthorized', message: 'The API key was rejected. Check it in Settings.' },
    });
  });

  it('reports a rate limit at once instead of waiting for it', async () => {
    // Spend the Free key's 100 requests of the (3.6 s) window.
    await Promise.all(
      Array.from({ length: 100 }, () =>
        fetch(`${emu.info.base_url}/me`, { headers: { Authorization: `Bearer ${emu.info.keys.free}` } }),
      ),
    );
    const t = Date.now();
    const r = await whoami(['--json'], envFor(emu.info.keys.free));
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'rate_limited' } });
    expect(r.stderr).toMatch(/Too many requests to the service\. Try again in \d+ seconds\./);
    expect(Date.now() - t).toBeLessThan(3000);
  });

  it('without a configured service address says how to set one', async () => {
    const r = await whoami([], {});
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('No service address is configured');
    expect(r.stderr).toContain('SCANBRIDGE_API_URL');
  });

  it('takes the address from the saved settings when the environment has none', async () => {
    const dir = mkdtempSync(join(tmp, 'cfg-saved-'));
    openSettingsStore({ cwd: dir }).update({ api_base_url: emu.info.base_url });
    const r = await whoami(['--json'], { SCANBRIDGE_CONFIG_DIR: dir, SCANBRIDGE_API_KEY: emu.info.keys.clinica });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ plan: 'clinica', base_url: emu.info.base_url });
  });

  it('rejects unknown options with exit 2', async () => {
    const r = await whoami(['--yaml'], envFor(emu.info.keys.pro));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yaml');
  });

  it('explains itself with --help', async () => {
    const r = await whoami(['--help'], {});
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: scanbridge whoami [--json]');
  });
});
