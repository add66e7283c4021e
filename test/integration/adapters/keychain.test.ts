import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYCHAIN_SERVICE, KeytarSecretStore } from '@main/adapters/keytar-secret-store';
import { detectKeychain } from '@main/core/secrets/detect';
import { openSettingsStore } from '@main/core/settings/store';
import { EmulatorProcess } from '../../support/emulator/emulator';
import { repoRoot } from '@support/repo-paths';

// These tests talk to a REAL OS keychain: gnome-keyring in a private D-Bus session, as
// test/run-tests.sh provides. Without one they fail (they never skip).
const root = repoRoot;

type ChildResult = { code: number | null; stdout: string; stderr: string; ms: number };

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const t = Date.now();
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} did not finish in ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - t });
    });
  });
}

describe('keychain (keytar) against a real OS keyring', () => {
  let scratch: string;
  let store: KeytarSecretStore;
  let unusable: Error | undefined;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'sb-keychain-'));
    // A service of its own, so round trips never touch the app's real entries.
    store = new KeytarSecretStore({ service: `ScanBridge-test-${process.pid}-${Date.now()}` });
    if (!process.env['DBUS_SESSION_BUS_ADDRESS']) {
      unusable = new Error(
        'No D-Bus session: run this test through test/run-tests.sh (dbus-run-session with an unlocked gnome-keyring).',
      );
      return;
    }
    const status = await detectKeychain(store);
    if (!status.available)
      unusable = new Error(`The test keyring is not usable (${status.error.problem}): ${status.error.message}`);
  });
  afterAll(async () => {
    if (!unusable) {
      await store.delete('live').catch(() => undefined);
      await store.delete('sandbox').catch(() => undefined);
    }
    rmSync(scratch, { recursive: true, force: true });
  });
  // Each test fails (never skips) when there is no real keyring to test against.
  const requireKeyring = (): void => {
    if (unusable) throw unusable;
  };

  it('stores, reads and deletes the live and the sandbox key independently', async () => {
    requireKeyring();
    expect(await store.get('live')).toBeNull();
    await store.set('live', 'cbct_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
    await store.set('sandbox', 'cbct_test_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb');
    expect(await store.get('live')).toBe('cbct_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
    expect(await store.get('sandbox')).toBe('cbct_test_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb');
    await store.set('live', 'cbct_live_cccccccccccccccccccccccccccccccc');
    expect(await store.get('live')).toBe('cbct_live_cccccccccccccccccccccccccccccccc');
    expect(await store.delete('live')).toBe(true);
    expect(await store.delete('live')).toBe(false);
    expect(await store.get('live')).toBeNull();
    expect(await store.get('sandbox')).toBe('cbct_test_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb');
    expect(await store.delete('sandbox')).toBe(true);
  });

  it("keeps the proxy's user and password beside the keys, each on its own", async () => {
    requireKeyring();
    await store.set('live', 'cbct_live_eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee');
    await store.set('proxy_user', 'recepción');
    await store.set('proxy_password', 'Clave:del/proxy@1');
    expect(await store.get('proxy_user')).toBe('recepción');
    expect(await store.get('proxy_password')).toBe('Clave:del/proxy@1');
    expect(await store.delete('proxy_password')).toBe(true);
    expect(await store.get('proxy_password')).toBeNull();
    expect(await store.get('proxy_user')).toBe('recepción');
    expect(await store.get('live')).toBe('cbct_live_eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee');
    await store.delete('proxy_user');
    await store.delete('live');
  });

  it('round-trips non-ASCII text exactly', async () => {
    requireKeyring();
    const value = 'clave-Ñuñoa-ÁÉÍÓÚ-ü-中文-🦷';
    await store.set('sandbox', value);
    expect(await store.get('sandbox')).toBe(value);
    await store.delete('sandbox');
  });

  it('a second store on the same service sees what the first saved (it is the OS keychain, not memory)', async () => {
    requireKeyring();
    const service = `ScanBridge-test-shared-${process.pid}`;
    const a = new KeytarSecretStore({ service });
    const b = new KeytarSecretStore({ service });
    await a.set('live', 'cbct_live_dddddddddddddddddddddddddddddddd');
    expect(await b.get('live')).toBe('cbct_live_dddddddddddddddddddddddddddddddd');
    await b.delete('live');
    expect(await a.get('live')).toBeNull();
  });

  it('the CLI reads the key from the keychain, and the key never reaches the settings file or the output', async () => {
    requireKeyring();
    const emu = await EmulatorProcess.start();
    const app = new KeytarSecretStore();
    expect(KEYCHAIN_SERVICE).toBe('ScanBridge');
    // The app's own service: keep whatever a developer had there and put it back afterwards.
    const saved = { live: await app.get('live'), sandbox: await app.get('sandbox') };
    try {
      const key = emu.info.keys.sandbox;
      await app.set('sandbox', key);
      const configDir = join(scratch, 'config');
      mkdirSync(configDir);
      openSettingsStore({ cwd: configDir }).update({
        api_base_url: emu.info.base_url,
        active_key_kind: 'sandbox',
        language: 'es',
      });
      const env: NodeJS.ProcessEnv = { ...process.env, SCANBRIDGE_CONFIG_DIR: configDir };
      delete env['SCANBRIDGE_API_KEY'];
      delete env['SCANBRIDGE_API_URL'];
      const human = await run(process.execPath, ['main/bin/scanbridge.mjs', 'whoami'], env);
      expect(human.code, human.stderr).toBe(0);
      expect(human.stdout).toContain('the keychain');
      expect(human.stdout).toContain('SANDBOX');
      const json = await run(process.execPath, ['main/bin/scanbridge.mjs', 'whoami', '--json'], env);
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({ key_source: 'keychain', sandbox: true, plan: 'pro' });
      for (const name of readdirSync(configDir)) expect(readFileSync(join(configDir, name), 'utf8')).not.toContain(key);
      for (const out of [human.stdout, human.stderr, json.stdout, json.stderr]) expect(out).not.toContain(key);
      // A live key's body, too: nothing of either kind was written anywhere in the config folder.
      expect(readFileSync(join(configDir, 'settings.json'), 'utf8')).not.toMatch(/cbct_(live|test)_/);
    } finally {
      for (const kind of ['live', 'sandbox'] as const) {
        const v = saved[kind];
        if (v === null) await app.delete(kind);
        else await app.set(kind, v);
      }
      await emu.dispose();
    }
  });
});

describe('keychain unavailable: detected fast and explained', () => {
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'sb-nokeychain-'));
  });
  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  /** A child process that asks the keychain once and prints what it got. */
  function probeScript(op: 'get' | 'set' = 'get'): string {
    const path = join(scratch, `probe-${op}.mts`);
    const adapter = join(root, 'main/adapters/keytar-secret-store.ts');
    writeFileSync(
      path,
      `import { KeytarSecretStore } from ${JSON.stringify(adapter)};
const t = Date.now();
try {
  const store = new KeytarSecretStore({ service: 'ScanBridge-probe' });
  ${op === 'get' ? "await store.get('live');" : "await store.set('live', 'probe');"}
  console.log(JSON.stringify({ ok: true, ms: Date.now() - t }));
} catch (e) {
  const err = e as { name: string; problem?: string; message: string };
  console.log(JSON.stringify({ ok: false, name: err.name, problem: err.problem, message: err.message, ms: Date.now() - t }));
}
// The keychain library may still be waiting on D-Bus; do not wait for it.
process.exit(0);
`,
    );
    return path;
  }

  /** A D-Bus session bus whose service folder holds only `services`. */
  function busConfig(name: string, services: Record<string, string>, startTimeoutMs = 25_000): string {
    const dir = join(scratch, name);
    mkdirSync(join(dir, 'services'), { recursive: true });
    for (const [file, text] of Object.entries(services)) writeFileSync(join(dir, 'services', file), text);
    const conf = join(dir, 'bus.conf');
    writeFileSync(
      conf,
      `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=${dir}</listen>
  <servicedir>${join(dir, 'services')}</servicedir>
  <limit name="service_start_timeout">${startTimeoutMs}</limit>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
`,
    );
    return conf;
  }

  const parse = (r: ChildResult): { ok: boolean; name?: string; problem?: string; message?: string; ms: number } => {
    const line = r.stdout.trim().split('\n').at(-1) ?? '';
    try {
      return JSON.parse(line) as { ok: boolean; ms: number };
    } catch {
      throw new Error(`probe printed no result (exit ${r.code}): ${r.stdout} ${r.stderr}`);
    }
  };

  const baseEnv = (): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: mkdtempSync(join(scratch, 'home-')) };
    delete env['DBUS_SESSION_BUS_ADDRESS'];
    delete env['DISPLAY'];
    return env;
  };

  it('without a D-Bus session: no_dbus, at once', async () => {
    const r = parse(await run(process.execPath, ['--import', 'tsx', probeScript()], baseEnv()));
    expect(r).toMatchObject({ ok: false, name: 'KeychainUnavailableError', problem: 'no_dbus' });
    expect(r.message).toContain('SCANBRIDGE_API_KEY');
    expect(r.ms).toBeLessThan(2000);
  });

  it('with D-Bus but no keyring service installed: no_keyring_service, at once', async () => {
    const conf = busConfig('empty-bus', {});
    const r = parse(
      await run(
        'dbus-run-session',
        [`--config-file=${conf}`, '--', process.execPath, '--import', 'tsx', probeScript()],
        baseEnv(),
      ),
    );
    expect(r).toMatchObject({ ok: false, name: 'KeychainUnavailableError', problem: 'no_keyring_service' });
    expect(r.ms).toBeLessThan(2000);
  });

  it('with a keyring service that never answers: timeout after about 3 s instead of ~25 s', async () => {
    const conf = busConfig(
      'hanging-bus',
      {
        'org.freedesktop.secrets.service': '[D-BUS Service]\nName=org.freedesktop.secrets\nExec=/bin/sleep 5\n',
      },
      7000,
    ); // the bus's own activation limit (25 s by default) shortened so the process ends sooner
    const r = parse(
      await run(
        'dbus-run-session',
        [`--config-file=${conf}`, '--', process.execPath, '--import', 'tsx', probeScript()],
        baseEnv(),
      ),
    );
    expect(r).toMatchObject({ ok: false, name: 'KeychainUnavailableError', problem: 'timeout' });
    expect(r.ms).toBeGreaterThanOrEqual(2900);
    expect(r.ms).toBeLessThan(6000);
  });

  it('a keyring daemon with no unlocked login keyring: saving fails as locked', async () => {
    // The system's gnome-keyring is D-Bus activated but cannot prompt (no display) and has no keyring.
    const r = parse(
      await run('dbus-run-session', ['--', process.execPath, '--import', 'tsx', probeScript('set')], baseEnv()),
    );
    expect(r).toMatchObject({ ok: false, name: 'KeychainUnavailableError', problem: 'locked' });
    expect(r.message).toMatch(/locked/);
  });
});
