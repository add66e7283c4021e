// `npm run demo`: ScanBridge against a local service emulator, with realistic scanner exports. It
// lives with the tests because it drives their emulator and DICOM fixture generators.
//
// Starts the emulator, points a private app-data and settings folder at it, configures a demo
// watch folder, opens the app (Electron when its binary is installed and a display exists, else
// browser mode with the URL printed), then writes DCMTK-made exports into the watch folder file by
// file over a few seconds, as a scanner does: a CBCT of ~120 slices and three radiographs, with
// Spanish names. Runs until Ctrl+C, then stops everything and removes its folders.
//
//   npm run demo               Electron if possible, else browser mode
//   npm run demo -- --browser  always browser mode
//   npm run demo -- --keep     keep the demo folders (printed) after Ctrl+C
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { copyFile, mkdir, readdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { openSettingsStore } from '../main/core/settings';
import { newWatchFolder } from '../main/core/settings';
import { writeCbctExport, writeRadiograph } from './fixtures/dicom/generate';

const root = fileURLToPath(new URL('..', import.meta.url));
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
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${argv.join(' ')} exited with ${code}`))));
  });
}

/** The Electron binary, when the electron package downloaded it (it cannot be on offline machines). */
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

const hasDisplay = (): boolean => process.platform !== 'linux' || Boolean(process.env['DISPLAY'] || process.env['WAYLAND_DISPLAY']);

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(p)));
    else out.push(p);
  }
  return out.sort();
}

/** Copies a staged export into the watch folder a few files at a time, as a scanner writes one. */
async function writeLikeAScanner(staged: string, target: string, seconds: number): Promise<void> {
  const files = await listFiles(staged);
  const steps = Math.max(1, Math.round(seconds * 5));
  const perStep = Math.max(1, Math.ceil(files.length / steps));
  for (let i = 0; i < files.length; i += perStep) {
    for (const f of files.slice(i, i + perStep)) {
      const dest = join(target, relative(staged, f));
      await mkdir(dirname(dest), { recursive: true });
      await copyFile(f, dest);
    }
    await sleep(200);
  }
}

async function stageExports(staging: string): Promise<{ name: string; dir: string; seconds: number }[]> {
  const cbct = join(staging, 'CBCT_20260302_0915');
  await writeCbctExport(cbct, { patientName: 'MUÑOZ^JUAN CARLOS', patientId: '12.345.678-5', birthDate: '19800131', studyDate: '20260302', volumeSlices: 120, scoutSlices: 3, rows: 256, cols: 256 });
  const pano = join(staging, 'PANO_20260302_1002');
  await writeRadiograph(join(pano, 'PX000001.dcm'), { modality: 'PX', patientName: 'PÉREZ^MARÍA JOSÉ', patientId: '9.876.543-2', birthDate: '19751224', studyDate: '20260302', studyDescription: 'Panorámica', charset: 'latin1' });
  const intra = join(staging, 'INTRAORAL_20260302_1040');
  const io = { modality: 'IO' as const, patientName: 'NÚÑEZ^ÁLVARO', patientId: '15.555.000-K', birthDate: '19920607', studyDate: '20260302', studyDescription: 'Retroalveolar', charset: 'utf8' as const };
  const first = await writeRadiograph(join(intra, 'IO000001.dcm'), io);
  await writeRadiograph(join(intra, 'IO000002.dcm'), { ...io, studyUid: first.studyUid, seriesUid: first.seriesUid, instanceNumber: 2 });
  return [
    { name: 'CBCT (MUÑOZ^JUAN CARLOS, 123 files)', dir: cbct, seconds: 5 },
    { name: 'panorámica (PÉREZ^MARÍA JOSÉ)', dir: pano, seconds: 1 },
    { name: 'intraorales (NÚÑEZ^ÁLVARO, 2 files)', dir: intra, seconds: 1 },
  ];
}

async function main(): Promise<void> {
  const base = mkdtempSync(join(tmpdir(), 'scanbridge-demo-'));
  const dirs = { emulator: join(base, 'emulator'), data: join(base, 'app-data'), config: join(base, 'config'), watch: join(base, 'Exportaciones escáner'), staging: join(base, 'staging') };
  for (const d of Object.values(dirs)) await mkdir(d, { recursive: true });

  let stopping = false;
  const stop = async (code: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    say('\nStopping the demo…');
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
    if (args.has('--keep')) say(`Demo folders kept in ${base}`);
    else rmSync(base, { recursive: true, force: true });
    process.exit(code);
  };
  // Lasting handlers: the settings store's writer re-sends the signal once its own handler ran.
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  try {
    say('Starting the service emulator…');
    const emulator = await startWithJsonLine<EmulatorInfo>(process.execPath, ['--import', 'tsx', 'test/emulator/main.ts', '--port', '0', '--data', dirs.emulator, '--insecure-webhooks'], process.env, 'the emulator');

    // The app's own folders and a watch folder, pointed at the emulator.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SCANBRIDGE_DATA_DIR: dirs.data,
      SCANBRIDGE_CONFIG_DIR: dirs.config,
      SCANBRIDGE_API_URL: emulator.base_url,
      SCANBRIDGE_KEYCHAIN_SERVICE: 'ScanBridge Demo',
    };
    const settings = openSettingsStore({ cwd: dirs.config, env });
    settings.update({ api_base_url: emulator.base_url, watch_folders: [newWatchFolder({ path: dirs.watch, mode: 'review', settle_seconds: 3, exam_type: 'from_dicom' })] });

    say('Writing the sample exports with DCMTK…');
    const exports = await stageExports(dirs.staging);

    if (!existsSync(join(root, 'renderer', 'dist', 'index.html'))) {
      say('Building the window (renderer/dist)…');
      await run('npm', ['run', '-s', 'build']);
    }

    const electron = args.has('--browser') || !hasDisplay() ? null : electronBinary();
    if (electron) {
      say('Building the desktop app bundle…');
      await run('npm', ['run', '-s', 'build:main']);
      const child = spawn(electron, ['.'], { cwd: root, env, stdio: 'inherit' });
      children.push(child);
      child.once('exit', () => void stop(0));
      say('ScanBridge is open (Electron).');
    } else {
      const line = await startWithJsonLine<{ url: string }>(process.execPath, ['main/bin/scanbridge.mjs', 'serve', '--port', '0'], env, 'scanbridge serve');
      say(`ScanBridge runs in browser mode${electron === null && !args.has('--browser') ? ' (no Electron binary or no display here)' : ''}. Open:\n\n  ${line.url}\n`);
    }
    say('Paste one of these emulator keys in the onboarding screen:');
    say(`  pro (live):  ${emulator.keys['pro'] ?? ''}`);
    say(`  sandbox:     ${emulator.keys['sandbox'] ?? ''}`);
    say(`Watch folder: ${dirs.watch}`);
    say('Press Ctrl+C to stop.\n');

    await sleep(3000);
    for (const e of exports) {
      say(`The scanner is writing: ${e.name}…`);
      await writeLikeAScanner(e.dir, join(dirs.watch, relative(dirs.staging, e.dir)), e.seconds);
      await sleep(1500);
    }
    const bytes = (await Promise.all((await listFiles(dirs.watch)).map(async (f) => (await stat(f)).size))).reduce((a, b) => a + b, 0);
    say(`Done: ${exports.length} exports (${(bytes / 1e6).toFixed(1)} MB) in the watch folder. They appear in the inbox once complete.`);
  } catch (e) {
    process.stderr.write(`demo: ${e instanceof Error ? e.message : String(e)}\n`);
    await stop(1);
  }
}

await main();
