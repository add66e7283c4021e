// The command line on a hostile network, with real parts: the emulator over HTTPS with its own CA,
// Debian's tinyproxy asking for a login, the built `scanbridge` bin and DCMTK-made DICOM.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodArgs, MethodName, MethodResult } from '@preload/contract';
import { startAgent } from '@main/core/agent';
import { createApiClient } from '@main/core/api';
import { reportStepWords } from '@main/core/diagnose/check-words';
import { MemorySecretStore } from '@main/core/secrets';
import { openSettingsStore } from '@main/core/settings/store';
import { createNetwork, directResolver } from '@main/core/net/network';
import { resolveTrust } from '@main/core/net/trust';
import { writeCbctExport, type CbctExport } from '@fixtures/dicom/generate';
import { EmulatorProcess } from '@support/emulator/emulator';
import { cliBin, repoRoot } from '@support/repo-paths';
import { startTinyproxy, type Tinyproxy } from '@support/network/tinyproxy';

type Run = { code: number | null; stdout: string; stderr: string };

let emu: EmulatorProcess;
let proxy: Tinyproxy;
let tmp: string;
let study: CbctExport;

function run(args: string[], extra: NodeJS.ProcessEnv, dataDir: string): Promise<Run> {
  // The test's own environment may name a proxy: only what each case sets is used.
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(https?|all|no)_proxy$/i.test(k) && k !== 'NODE_EXTRA_CA_CERTS'),
  );
  const env = {
    ...base,
    SCANBRIDGE_API_URL: emu.info.base_url,
    SCANBRIDGE_API_KEY: emu.info.keys.pro,
    SCANBRIDGE_DATA_DIR: dataDir,
    SCANBRIDGE_CONFIG_DIR: join(dataDir, 'config'),
    LANG: 'C.UTF-8',
    ...extra,
  };
  const child = spawn(process.execPath, [cliBin, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** The emulator's exams, read directly (trusting its CA) — not through the code under test's proxy. */
async function examCount(): Promise<number> {
  const trust = resolveTrust({ env: { SCANBRIDGE_CA_FILE: emu.info.ca_file } });
  const client = createApiClient({
    baseUrl: emu.info.base_url,
    apiKey: emu.info.keys.pro,
    network: createNetwork(directResolver, trust),
  });
  return (await client.exams.list({})).exams.length;
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'sb-net-cli-'));
  [emu, proxy, study] = await Promise.all([
    EmulatorProcess.start({ tls: true }),
    startTinyproxy(),
    writeCbctExport(join(tmpdir(), `sb-net-study-${process.pid}`), { volumeSlices: 6, scoutSlices: 1 }),
  ]);
});

afterAll(async () => {
  await Promise.all([emu.dispose(), proxy.stop()]);
  rmSync(tmp, { recursive: true, force: true });
  rmSync(study.root, { recursive: true, force: true });
});

describe('scanbridge on a hostile network', () => {
  it('refuses the emulator over HTTPS without its CA, in words and without a stack trace', async () => {
    expect(emu.info.base_url.startsWith('https://')).toBe(true);
    const r = await run(['upload', study.root], {}, join(tmp, 'no-ca'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('does not trust the certificate');
    expect(r.stderr).toContain('Ask IT');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(await examCount()).toBe(0);
  });

  it('uploads through a proxy with a login, trusting the CA from SCANBRIDGE_CA_FILE', async () => {
    const before = proxy.connects().length;
    const r = await run(
      ['upload', study.root],
      { HTTPS_PROXY: proxy.url, SCANBRIDGE_CA_FILE: emu.info.ca_file },
      join(tmp, 'proxied'),
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ status: 'ready', files: study.files });
    // Every request (API calls and presigned PUTs) went through tunnels to the emulator.
    const emuHost = new URL(emu.info.base_url).host;
    const tunnels = proxy.connects().slice(before);
    expect(tunnels.length).toBeGreaterThanOrEqual(2);
    expect(new Set(tunnels)).toEqual(new Set([emuHost]));
    expect(await examCount()).toBe(1);
  });

  it('says the proxy refused the login, naming it, and makes no exam', async () => {
    const before = await examCount();
    const r = await run(
      ['upload', study.root],
      { https_proxy: proxy.urlWithPassword('wrong'), SCANBRIDGE_CA_FILE: emu.info.ca_file },
      join(tmp, 'bad-login'),
    );
    expect(r.code).not.toBe(0);
    // tinyproxy 1.11 answers a CONNECT with a wrong login 401 (not 407): both are the proxy's refusal.
    expect(r.stderr).toMatch(
      new RegExp(`The proxy http://127\\.0\\.0\\.1:${proxy.port} refused the login \\(HTTP 40[17]\\)`),
    );
    expect(r.stderr).not.toContain('wrong');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(await examCount()).toBe(before);
  });
});

describe('scanbridge doctor', () => {
  type Step = Record<string, unknown>;
  type Report = Partial<Record<string, Step>> & { ok: boolean; failed_step: string | null };
  const stepOf = (report: Report, name: string): Step => report[name] ?? {};
  const lastJson = (stdout: string): Report => JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Report;

  it('checks every step through the proxy and names the proxy, the TLS issuer, the key and the speed', async () => {
    const before = proxy.connects().length;
    const r = await run(
      ['doctor', '--json'],
      { HTTPS_PROXY: proxy.url, SCANBRIDGE_CA_FILE: emu.info.ca_file },
      join(tmp, 'doc-ok'),
    );
    expect(r.code).toBe(0);
    const report = lastJson(r.stdout);
    expect(report.ok).toBe(true);
    expect(report.failed_step).toBeNull();
    expect(report['proxy']).toMatchObject({ status: 'ok', url: `http://127.0.0.1:${proxy.port}`, source: 'env' });
    expect(report['dns']).toMatchObject({ status: 'ok', host: '127.0.0.1' });
    expect(report['tcp']).toMatchObject({ status: 'ok', target: `127.0.0.1:${proxy.port}` });
    expect(report['tls']).toMatchObject({ status: 'ok', used: true, issuer: 'ScanBridge Emulator Test CA' });
    expect(report['api_key']).toMatchObject({ status: 'ok', key_kind: 'live', plan: 'pro' });
    expect((stepOf(report, 'api_key')['rate'] as { limit: number }).limit).toBe(1000);
    expect(report['storage']).toMatchObject({ status: 'ok', cleaned_up: true });
    expect(stepOf(report, 'upload_speed')['bytes_per_second']).toBeGreaterThan(0);
    // The login never appears; every step went through the proxy's tunnels.
    expect(r.stdout + r.stderr).not.toContain('Secreto');
    expect(proxy.connects().length - before).toBeGreaterThanOrEqual(3);
    expect(r.stderr).toContain('issued by ScanBridge Emulator Test CA');
    // The test exam is gone.
    expect(await examCount()).toBe(1);
  });

  it('reads an empty https_proxy= and no_proxy= as unset, as curl does: HTTPS_PROXY is used, NO_PROXY obeyed', async () => {
    const before = proxy.connects().length;
    const through = await run(
      ['doctor', '--json'],
      { https_proxy: '', HTTPS_PROXY: proxy.url, SCANBRIDGE_CA_FILE: emu.info.ca_file },
      join(tmp, 'doc-empty-lower'),
    );
    expect(through.code, through.stderr).toBe(0);
    expect(lastJson(through.stdout)['proxy']).toMatchObject({ status: 'ok', url: `http://127.0.0.1:${proxy.port}` });
    expect(proxy.connects().length - before).toBeGreaterThanOrEqual(3);

    const after = proxy.connects().length;
    const direct = await run(
      ['doctor', '--json'],
      { HTTPS_PROXY: proxy.url, no_proxy: '', NO_PROXY: '127.0.0.1', SCANBRIDGE_CA_FILE: emu.info.ca_file },
      join(tmp, 'doc-empty-no-proxy'),
    );
    expect(direct.code, direct.stderr).toBe(0);
    expect(lastJson(direct.stdout)['proxy']).toMatchObject({ status: 'ok', url: null });
    expect(proxy.connects().length).toBe(after);
  });

  it('says which step failed, in words, and exits non-zero: the proxy login, then an untrusted certificate', async () => {
    const login = await run(
      ['doctor', '--json'],
      { HTTPS_PROXY: proxy.urlWithPassword('nope'), SCANBRIDGE_CA_FILE: emu.info.ca_file },
      join(tmp, 'doc-407'),
    );
    expect(login.code).toBe(1);
    const a = lastJson(login.stdout);
    expect(a.failed_step).toBe('proxy');
    expect(a['proxy']).toMatchObject({ status: 'failed', problem: 'proxy_auth' });
    expect(stepOf(a, 'tls')['status']).toBe('skipped');
    expect(login.stderr).toContain(`FAIL  Proxy         The proxy http://127.0.0.1:${proxy.port} refused the login`);

    const untrusted = await run(['doctor'], { LANG: 'es_CL.UTF-8' }, join(tmp, 'doc-ca'));
    expect(untrusted.code).toBe(1);
    expect(untrusted.stdout).toContain('Este equipo no confía en el certificado');
    expect(untrusted.stdout).toContain('Falló el paso «TLS»');
    expect(untrusted.stdout + untrusted.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('the proxy saved in Settings (its login in the keychain)', () => {
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

  it('carries the API calls and the storage round trip, over HTTPS_PROXY, and never writes the password', async () => {
    const dir = join(tmp, 'agent-proxy');
    const secrets = new MemorySecretStore();
    const agent = await startAgent({
      dataDir: join(dir, 'data'),
      configDir: join(dir, 'config'),
      // The environment names a proxy nobody listens on: the one in Settings must win.
      env: {
        SCANBRIDGE_API_URL: emu.info.base_url,
        SCANBRIDGE_API_KEY: emu.info.keys.pro,
        SCANBRIDGE_CA_FILE: emu.info.ca_file,
        HTTPS_PROXY: 'http://127.0.0.1:9',
      },
      secretStore: secrets,
      transport: 'http',
      log: quiet,
    });
    const call = <M extends MethodName>(name: M, args: MethodArgs<M>): Promise<MethodResult<M>> =>
      agent.host.call(name, args) as Promise<MethodResult<M>>;
    try {
      const address = `http://127.0.0.1:${proxy.port}`;
      const saved = await call('network:proxy-save', {
        url: address,
        user: 'clinica',
        password: 'Secreto-123',
      });
      expect(saved).toEqual({ url: address, user: 'clinica', password_saved: true, session_only: false });
      expect(await secrets.get('proxy_password')).toBe('Secreto-123');
      expect(readFileSync(agent.settingsFile, 'utf8')).toContain(address);
      expect(readFileSync(agent.settingsFile, 'utf8')).not.toContain('Secreto');

      const before = proxy.connects().length;
      await expect(call('account:get', {})).resolves.toMatchObject({ plan: 'pro' });
      const check = await call('network:check', {});
      expect(check.ok).toBe(true);
      expect(check.proxy).toMatchObject({ status: 'ok', url: address, source: 'settings' });
      expect(check.storage).toMatchObject({ status: 'ok', cleaned_up: true });
      // The API client's pool and the presigned transfers' pool each opened tunnels through it.
      expect(proxy.connects().length - before).toBeGreaterThanOrEqual(3);
      // The window gets the login back without the password.
      expect(await call('network:proxy', {})).toEqual(saved);

      // A wrong password (the user kept): refused by the proxy, in words naming it, es and en.
      await call('network:proxy-save', { url: address, user: 'clinica', password: 'wrong' });
      await expect(call('account:get', {})).rejects.toMatchObject({ code: 'net_proxy_auth' });
      const refused = await call('network:check', {});
      expect(refused).toMatchObject({ ok: false, failed_step: 'proxy' });
      expect(refused.proxy).toMatchObject({ status: 'failed', problem: 'proxy_auth', source: 'settings' });
      expect(reportStepWords(refused, 'proxy', 'en')).toMatch(
        new RegExp(`^The proxy http://127\\.0\\.0\\.1:${proxy.port} refused the login \\(HTTP 40[17]\\)`),
      );
      expect(reportStepWords(refused, 'proxy', 'es')).toMatch(
        new RegExp(`^El proxy http://127\\.0\\.0\\.1:${proxy.port} rechazó el usuario y la contraseña`),
      );

      // Removing the proxy removes its login from the keychain.
      await call('network:proxy-save', { url: null, user: null });
      expect(await secrets.get('proxy_user')).toBeNull();
      expect(await secrets.get('proxy_password')).toBeNull();
    } finally {
      await agent.stop();
    }
  });

  it('is used by the command line over HTTPS_PROXY; its refusal is said in Spanish and English', async () => {
    // No login for this proxy in the keychain: tinyproxy refuses, although HTTPS_PROXY has the right one.
    const dataDir = join(tmp, 'cli-settings-proxy');
    openSettingsStore({ env: { SCANBRIDGE_CONFIG_DIR: join(dataDir, 'config') } }).update({
      network: { proxy_url: `http://127.0.0.1:${proxy.port}`, ca_file: null },
    });
    const before = await examCount();
    for (const [lang, words] of [
      ['es_CL.UTF-8', `El proxy http://127.0.0.1:${proxy.port} rechazó el usuario y la contraseña`],
      ['en_US.UTF-8', `The proxy http://127.0.0.1:${proxy.port} refused the login`],
    ] as const) {
      const r = await run(
        ['upload', study.root],
        { HTTPS_PROXY: proxy.url, SCANBRIDGE_CA_FILE: emu.info.ca_file, LANG: lang },
        dataDir,
      );
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(words);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(await examCount()).toBe(before);
  });
});
