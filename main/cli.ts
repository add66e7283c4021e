// `scanbridge` command line: the same core the desktop app runs, without a window (CONTRACTS.md §2).
import { type CliCommand, type CliIo, keepSelfSignalsCatchable, stopSignals, UsageError } from './core/cli/session';
import { dirname } from 'node:path';
import { diskFullWords, isNoSpace } from './core/disk-full';
import { terminalLanguage } from './core/net/failure-words';
import { t } from './core/i18n';
import { appDataDir } from './core/paths';
import { settingsDamageFound, settingsDamageWords } from './core/settings/settings-damage';

/** The OS keychain, loaded only by the commands that need a key (keytar is a native module). */
const keychain = { secretStore: async () => new (await import('./adapters/keytar-secret-store')).KeytarSecretStore() };

const commands: Record<string, () => Promise<CliCommand>> = {
  scan: async () => (await import('./core/cli/scan')).scanCommand,
  whoami: async () => (await import('./core/cli/whoami')).createWhoamiCommand(keychain),
  upload: async () => (await import('./core/cli/upload')).createUploadCommand(keychain),
  handout: async () => (await import('./core/cli/handout')).createHandoutCommand(keychain),
  watch: async () => (await import('./core/cli/watch')).createWatchCommand(keychain),
  receive: async () => (await import('./core/cli/receive')).createReceiveCommand(keychain),
  doctor: async () => (await import('./core/cli/doctor')).createDoctorCommand(keychain),
  'support-bundle': async () => (await import('./core/cli/support-bundle')).createSupportBundleCommand(keychain),
  // SCANBRIDGE_KEYCHAIN_SERVICE keeps the demo's and the end-to-end tests' keys apart from the clinic's own.
  serve: async () =>
    (await import('./core/cli/serve')).createServeCommand({
      secretStore: async () =>
        new (await import('./adapters/keytar-secret-store')).KeytarSecretStore({
          service: process.env['SCANBRIDGE_KEYCHAIN_SERVICE'] || undefined,
        }),
    }),
};

const commandList = Object.keys(commands)
  .map((c) => `  ${c}`)
  .join('\n');

async function main(): Promise<number> {
  const [name, ...argv] = process.argv.slice(2);
  const load = name ? commands[name] : undefined;
  if (!load) {
    process.stderr.write(t(terminalLanguage(process.env), 'cli.usage', { commands: commandList }));
    return name === undefined || name === '--help' || name === '-h' ? 0 : 2;
  }
  // A settings file found damaged (and what was done about it) is said once, when it is found.
  settingsDamageFound.subscribe((damage) =>
    process.stderr.write(`scanbridge ${name}: ${settingsDamageWords(damage, terminalLanguage(process.env))}\n`),
  );
  const controller = new AbortController();
  // process.on, not once: conf's exit hook re-raises the signal after its own handler, and without a
  // listener left the process would die with 143 instead of stopping cleanly (on Windows, with exit
  // code 1 at the first Ctrl+C: see console-signals.ts).
  keepSelfSignalsCatchable();
  const onSignal = (): void => controller.abort();
  for (const signal of stopSignals()) process.on(signal, onSignal);
  const io: CliIo = {
    argv,
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    env: process.env,
    signal: controller.signal,
  };
  try {
    return await (
      await load()
    )(io);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`scanbridge ${name}: ${err.words(terminalLanguage(process.env))}\n`);
      return 2;
    }
    if (isNoSpace(err)) {
      // A full disk met where no command expected it: the folder it names (or the data folder), in words.
      const path = (err as { path?: unknown }).path;
      const folder = typeof path === 'string' ? dirname(path) : appDataDir(process.env);
      process.stderr.write(`scanbridge ${name}: ${diskFullWords(folder, 0, terminalLanguage(process.env))}\n`);
      return 1;
    }
    // Anything else is unexpected: its technical words, introduced in the terminal's language.
    const detail = err instanceof Error ? err.message : String(err);
    process.stderr.write(`scanbridge ${name}: ${t(terminalLanguage(process.env), 'cli.unexpected', { detail })}\n`);
    return 1;
  }
}

process.exitCode = await main();
