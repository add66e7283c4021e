// `npm run demo`: ScanBridge against a local service emulator, already connected, with a scanner
// writing sample exports into a watched folder. Needs nothing but Node and `npm ci`.
//
// Starts the emulator, gives the app a private data and settings folder pointed at it, with the
// emulator's live and sandbox keys and a watch folder in review mode, opens the app (Electron when
// its binary is installed and a display exists, else browser mode with the URL printed), then
// writes a CBCT, a panoramic and intra-oral radiographs into the watch folder file by file, as a
// scanner does: they appear in the Inbox. Runs until Ctrl+C, then stops everything and removes its
// folders.
//
//   npm run demo               Electron if possible, else browser mode
//   npm run demo -- --browser  always browser mode
//   npm run demo -- --keep     keep the demo folders (printed) after Ctrl+C
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { KeytarSecretStore } from '../adapters/keytar-secret-store';
import type { Agent } from '../core/agent';
import { startAgent } from '../core/agent';
import { silentLogger, stderrLog } from '../core/log';
import type { Bridge } from '../core/bridge/server';
import { startBridge } from '../core/bridge/server';
import { MemorySecretStore } from '../core/secrets';
import { newWatchFolder, openSettingsStore } from '../core/settings';
import { sampleExports, writeLikeAScanner } from './exports';
import { seedDemoService } from './seed';
import { patientMethodNames } from '../../preload/contract';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = new Set(process.argv.slice(2));
const children: ChildProcess[] = [];
const say = (t: string): void => void process.stdout.write(`${t}\n`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

type EmulatorInfo = { base_url: string; control_url: string; keys: Record<string, string> };

/** Spawns a child whose first stdout line is JSON; resolves with it. */
async function startWithJsonLine<T>(command: string, argv: string[], env: NodeJS.ProcessEnv, what: string): Promise<T> {
  const child = spawn(command, argv, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    err += d;
    if (args.has('--verbose')) process.stderr.write(d);
  });
  const stdout = child.stdout;
  if (!stdout) throw new Error(`${what}: no output`);
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start within 60 s:\n${err}`)), 60_000);
    createInterface({ input: stdout }).once('line', (l) => {
      clearTimeout(timer);
      resolve(l);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with code ${code}:\n${err}`));
    });
  });
  return JSON.parse(line) as T;
}

function run(command: string, argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: root, env, stdio: 'inherit' });
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${argv.join(' ')} exited with ${code}`)),
    );
  });
}

/** The Electron binary, when the electron package downloaded it (it cannot on offline machines). */
function electronBinary(): string | null {
  try {
    const pkg = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const pathFile = join(pkg, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const bin = join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

const hasDisplay = (): boolean =>
  process.platform !== 'linux' || Boolean(process.env['DISPLAY'] || process.env['WAYLAND_DISPLAY']);

/**
 * The desktop app reads keys from the OS keychain: the demo puts the emulator's keys there under a
 * service of its own (never the clinic's entries). Without a usable keychain it hands the live key
 * over for the session (SCANBRIDGE_API_KEY); the sandbox key is then printed to paste.
 */
async function keysForElectron(keys: {
  live: string;
  sandbox: string;
}): Promise<{ env: NodeJS.ProcessEnv; seeded: boolean; cleanup: () => Promise<void> }> {
  const store = new KeytarSecretStore({ service: 'ScanBridge Demo' });
  try {
    await store.set('live', keys.live);
    await store.set('sandbox', keys.sandbox);
    const cleanup = async (): Promise<void> => {
      await store.delete('live').catch(() => undefined);
      await store.delete('sandbox').catch(() => undefined);
    };
    return { env: {}, seeded: true, cleanup };
  } catch {
    return { env: { SCANBRIDGE_API_KEY: keys.live }, seeded: false, cleanup: async () => undefined };
  }
}

/** Each child asked to end, and killed when it has not within 10 s. */
async function stopChildren(): Promise<void> {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          const force = setTimeout(() => c.kill('SIGKILL'), 10_000);
          c.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          c.kill('SIGTERM');
        }),
    ),
  );
}

/** The sample exports into the watch folder one after another, the CBCT (the biggest) the slowest. */
async function scanSamples(watch: string, signal: AbortSignal): Promise<void> {
  const exports = sampleExports();
  let total = 0;
  for (const [i, e] of exports.entries()) {
    say(`The scanner is writing: ${e.label}…`);
    total += await writeLikeAScanner(e, watch, i === 0 ? 8 : 1, signal);
    await sleep(1500);
  }
  say(
    `Done: ${exports.length} exports (${(total / 1e6).toFixed(1)} MB) in the watch folder. They appear in the Inbox once complete.`,
  );
}

async function main(): Promise<void> {
  const base = mkdtempSync(join(tmpdir(), 'scanbridge-demo-'));
  const dirs = {
    emulator: join(base, 'emulator'),
    data: join(base, 'app-data'),
    config: join(base, 'config'),
    watch: join(base, 'Exportaciones escáner'),
  };
  for (const d of Object.values(dirs)) await mkdir(d, { recursive: true });

  let agent: Agent | null = null;
  let bridge: Bridge | null = null;
  let cleanupKeys = async (): Promise<void> => undefined;
  const scanner = new AbortController();
  let stopping = false;
  const stop = async (code: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    scanner.abort();
    say('\nStopping the demo…');
    await bridge?.close();
    await agent?.stop();
    await cleanupKeys();
    await stopChildren();
    if (args.has('--keep')) say(`Demo folders kept in ${base}`);
    else rmSync(base, { recursive: true, force: true });
    process.exit(code);
  };
  // Lasting handlers: the settings store's writer re-sends the signal once its own handler ran.
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  try {
    say('Starting the service emulator…');
    const emulator = await startWithJsonLine<EmulatorInfo>(
      process.execPath,
      ['--import', 'tsx', 'test/emulator/main.ts', '--port', '0', '--data', dirs.emulator, '--insecure-webhooks'],
      process.env,
      'the emulator',
    );
    const keys = { live: emulator.keys['pro'] ?? '', sandbox: emulator.keys['sandbox'] ?? '' };
    say('Adding sample exams, a referring dentist, a signed report, a consent and a support ticket…');
    await seedDemoService({ base_url: emulator.base_url, control_url: emulator.control_url, key: keys.live });

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SCANBRIDGE_DATA_DIR: dirs.data,
      SCANBRIDGE_CONFIG_DIR: dirs.config,
      SCANBRIDGE_API_URL: emulator.base_url,
      SCANBRIDGE_KEYCHAIN_SERVICE: 'ScanBridge Demo',
    };
    const settings = openSettingsStore({ cwd: dirs.config, env });
    settings.update({
      api_base_url: emulator.base_url,
      active_key_kind: 'live',
      watch_folders: [newWatchFolder({ path: dirs.watch, mode: 'review', settle_seconds: 3, exam_type: 'from_dicom' })],
    });

    if (!existsSync(join(root, 'renderer', 'dist', 'index.html'))) {
      say('Building the window (renderer/dist)…');
      await run('npm', ['run', '-s', 'build']);
    }

    const electron = args.has('--browser') || !hasDisplay() ? null : electronBinary();
    let sandboxToPaste = false;
    if (electron) {
      say('Building the desktop app bundle…');
      await run('npm', ['run', '-s', 'build:main']);
      const seeded = await keysForElectron(keys);
      cleanupKeys = seeded.cleanup;
      sandboxToPaste = !seeded.seeded;
      const child = spawn(electron, ['.'], { cwd: root, env: { ...env, ...seeded.env }, stdio: 'inherit' });
      children.push(child);
      child.once('exit', () => void stop(0));
      say('ScanBridge is open (Electron), connected to the emulator.');
    } else {
      // Browser mode runs the agent in this process, with the emulator's two keys held in memory.
      // The patient display is a page of the same bridge (as `scanbridge serve` gives it), so the
      // operator's "patient display" opens somewhere.
      let patientOrigin: string | null = null;
      agent = await startAgent({
        dataDir: dirs.data,
        configDir: dirs.config,
        env: { SCANBRIDGE_API_URL: emulator.base_url },
        secretStore: new MemorySecretStore(keys),
        transport: 'http',
        patientPageOrigin: () => patientOrigin,
        log: args.has('--verbose') ? stderrLog('demo') : silentLogger,
      });
      const consent = agent.consent;
      bridge = await startBridge({
        host: agent.host,
        staticDir: join(root, 'renderer', 'dist'),
        port: 0,
        patient: { sessionOf: (t) => consent.sessions.byToken(t)?.id ?? null, methods: patientMethodNames },
      });
      patientOrigin = `http://127.0.0.1:${bridge.port}`;
      say(
        `ScanBridge runs in browser mode${args.has('--browser') ? '' : ' (no Electron binary or no display here)'}, connected to the emulator. Open:\n\n  ${bridge.url}\n`,
      );
    }
    say(
      `Keys: live (plan pro) is active; the sandbox key is there too (Settings → keys).${sandboxToPaste ? `\n  To add the sandbox key, paste: ${keys.sandbox}` : ''}`,
    );
    say(`Watch folder: ${dirs.watch}`);
    say('Press Ctrl+C to stop.\n');

    await sleep(2000);
    await scanSamples(dirs.watch, scanner.signal);
  } catch (e) {
    if (scanner.signal.aborted) return;
    process.stderr.write(`demo: ${e instanceof Error ? e.message : String(e)}\n`);
    await stop(1);
  }
}

await main();
