// The extra certificate authority (CA) file saved in Settings → Network, with real TLS: the emulator
// over HTTPS with its own CA. Nothing here sets SCANBRIDGE_CA_FILE: the CA is trusted only because
// Settings names its file — by a command (the built `scanbridge` bin) and by the agent that
// `scanbridge serve` and the desktop app run.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodArgs, MethodName, MethodResult } from '@preload/contract';
import { startAgent } from '@main/core/agent';
import { MemorySecretStore } from '@main/core/secrets';
import { openSettingsStore } from '@main/core/settings/store';
import { EmulatorProcess } from '@support/emulator/emulator';
import { cliBin, repoRoot } from '@support/repo-paths';

type Run = { code: number | null; stdout: string; stderr: string };

let emu: EmulatorProcess;
let tmp: string;
let caFile: string;
let notPem: string;
const missing = '/nonexistent/scanbridge/firewall-root.pem';
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The environment of a command or agent: the emulator's address and key, no CA or proxy variable. */
function cleanEnv(configDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(https?|all|no)_proxy$/i.test(k) && k !== 'NODE_EXTRA_CA_CERTS' && k !== 'SCANBRIDGE_CA_FILE',
    ),
  );
  return {
    ...base,
    SCANBRIDGE_API_URL: emu.info.base_url,
    SCANBRIDGE_API_KEY: emu.info.keys.pro,
    SCANBRIDGE_DATA_DIR: join(configDir, '..', 'data'),
    SCANBRIDGE_CONFIG_DIR: configDir,
    LANG: 'en_US.UTF-8',
    ...extra,
  };
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const child = spawn(process.execPath, [cliBin, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** A settings folder whose Settings → Network names `ca_file`. */
function configWith(name: string, ca_file: string | null): string {
  const dir = join(tmp, name, 'config');
  openSettingsStore({ env: { SCANBRIDGE_CONFIG_DIR: dir } }).update({ network: { proxy_url: null, ca_file } });
  return dir;
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'sb-ca-file-'));
  emu = await EmulatorProcess.start({ tls: true });
  caFile = emu.info.ca_file ?? '';
  notPem = join(tmp, 'not-a-certificate.txt');
  writeFileSync(notPem, 'IT said: use the firewall certificate\n');
});

afterAll(async () => {
  await emu.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

describe('a command trusts the CA file saved in Settings', () => {
  it('succeeds with it, and fails without it with the untrusted-certificate words', async () => {
    expect(emu.info.base_url.startsWith('https://')).toBe(true);
    const [trusted, untrusted] = await Promise.all([
      run(['whoami', '--json'], cleanEnv(configWith('saved', caFile))),
      run(['whoami'], cleanEnv(configWith('none', null), { LANG: 'es_CL.UTF-8' })),
    ]);
    expect(trusted.stderr).not.toMatch(/certificate|\n\s+at /);
    expect(trusted.code).toBe(0);
    expect(JSON.parse(trusted.stdout.trim())).toMatchObject({ plan: 'pro' });

    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toContain('Este equipo no confía en el certificado presentado por 127.0.0.1');
    expect(untrusted.stderr).toContain('agréguelo en Ajustes');
    expect(untrusted.stderr).not.toMatch(/\n\s+at /);
  });

  it('says a file it cannot read, or one without a certificate, in the terminal language, before sending anything', async () => {
    const [gone, notCert] = await Promise.all([
      run(['whoami'], cleanEnv(configWith('gone', missing))),
      run(['whoami'], cleanEnv(configWith('not-pem', notPem), { LANG: 'es_CL.UTF-8' })),
    ]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`The certificate authority (CA) file ${missing} cannot be read (ENOENT)`);
    expect(notCert.code).toBe(1);
    expect(notCert.stderr).toContain(`El archivo ${notPem} no contiene ningún certificado`);
    expect(gone.stderr + notCert.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("the agent's Settings → Network CA file (serve and the desktop app)", () => {
  it('is refused when unusable, trusted once saved, kept across a restart and removable', async () => {
    const configDir = join(tmp, 'agent', 'config');
    const open = () =>
      startAgent({
        dataDir: join(tmp, 'agent', 'data'),
        configDir,
        env: cleanEnv(configDir),
        secretStore: new MemorySecretStore(),
        transport: 'http',
        log: quiet,
      });
    let agent = await open();
    const call = <M extends MethodName>(name: M, args: MethodArgs<M>): Promise<MethodResult<M>> =>
      agent.host.call(name, args) as Promise<MethodResult<M>>;
    try {
      expect(await call('network:ca-file', {})).toEqual({
        path: null,
        certificates: 0,
        problem: null,
        env_file: null,
      });
      await expect(call('account:get', {})).rejects.toMatchObject({ code: 'net_cert_untrusted' });

      // Unusable files are refused with their own codes, and nothing is saved.
      await expect(call('network:ca-file-save', { path: missing })).rejects.toMatchObject({
        code: 'ca_file_unreadable',
      });
      await expect(call('network:ca-file-save', { path: notPem })).rejects.toMatchObject({
        code: 'ca_file_no_certificate',
      });
      await expect(call('network:ca-file-save', { path: 'firewall-root.pem' })).rejects.toMatchObject({
        code: 'invalid_args',
      });
      expect((await call('network:ca-file', {})).path).toBeNull();

      expect(await call('network:ca-file-save', { path: caFile })).toEqual({
        path: caFile,
        certificates: 1,
        problem: null,
        env_file: null,
      });
      await expect(call('account:get', {})).resolves.toMatchObject({ plan: 'pro' });
      expect(JSON.parse(readFileSync(agent.settingsFile, 'utf8'))).toMatchObject({ network: { ca_file: caFile } });
      const check = await call('network:check', {});
      expect(check.tls).toMatchObject({
        status: 'ok',
        issuer: 'ScanBridge Emulator Test CA',
        extra_ca_files: [caFile],
      });

      // A restart reads it from the settings file before any call.
      await agent.stop();
      agent = await open();
      await expect(call('account:get', {})).resolves.toMatchObject({ plan: 'pro' });

      // The saved file replaced by one without a certificate: the window is told.
      const copy = join(tmp, 'agent', 'copy.pem');
      writeFileSync(copy, readFileSync(caFile));
      await call('network:ca-file-save', { path: copy });
      writeFileSync(copy, 'gone\n');
      expect(await call('network:ca-file', {})).toMatchObject({
        path: copy,
        certificates: 0,
        problem: 'no_certificate',
      });

      // Removing it: not trusted any more.
      expect(await call('network:ca-file-save', { path: null })).toMatchObject({ path: null, certificates: 0 });
      await expect(call('account:get', {})).rejects.toMatchObject({ code: 'net_cert_untrusted' });
    } finally {
      await agent.stop();
    }
  });
});
