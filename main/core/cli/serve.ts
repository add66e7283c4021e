// `scanbridge serve [--port N] [--data-dir D]`: browser mode. Runs the agent and serves the built
// renderer plus the contract on 127.0.0.1, prints one JSON line with the URL and token on stdout,
// and serves until Ctrl+C / SIGTERM. Used by the demo and every end-to-end test.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAgent } from '../agent';
import { closeCommandLog, openCommandLog } from './session/command-log';
import { patientMethodNames } from '../../../preload/contract';
import { startBridge } from '../bridge/server';
import { appDataDir } from '../paths';
import type { SecretStore } from '../secrets/secret-store';
import type { CliCommand } from './session/io';
import { parseCommandLine, UsageError } from './session/io';
import { printUploadFailures } from './words/job-failure-words';
import { terminalLanguage } from '../net/failure-words';
import { t } from '../i18n';
import { listenReason } from './words/listen-words';

export type ServeCommandDeps = {
  /** The OS keychain (built by the caller, so the core never imports the native module). */
  secretStore: () => SecretStore | Promise<SecretStore>;
};

/** How long a stop may take before the process exits anyway (the goal: gone within 2 s of SIGTERM). */
const STOP_DEADLINE_MS = 1500;

const DEFAULT_RENDERER = fileURLToPath(new URL('../../../renderer/dist', import.meta.url));

type Args = { port: number; dataDir: string | undefined; renderer: string; help: boolean };

function parse(argv: string[]): Args {
  const { values } = parseCommandLine(
    argv,
    {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      renderer: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    false,
  );
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw UsageError.of('cli.usageError.port');
  return {
    port,
    dataDir: values['data-dir'] ? resolve(values['data-dir']) : undefined,
    renderer: values.renderer ? resolve(values.renderer) : DEFAULT_RENDERER,
    help: values.help ?? false,
  };
}

/** `scanbridge serve`: see its help (cli.help.serve in the catalogue). */
export function createServeCommand(deps: ServeCommandDeps): CliCommand {
  return async (io) => {
    const args = parse(io.argv);
    if (args.help) {
      io.stdout(t(terminalLanguage(io.env), 'cli.help.serve'));
      return 0;
    }
    const dataDir = args.dataDir ?? appDataDir(io.env);
    const startedAt = Date.now();
    const log = openCommandLog(io, 'serve', { dataDir, echo: true });
    const releaseSignals = absorbRepeatedSignals();
    if (!existsSync(resolve(args.renderer, 'index.html')))
      io.stderr(`scanbridge serve: ${t(terminalLanguage(io.env), 'cli.serve.noWindow', { dir: args.renderer })}\n`);
    let origin: string | null = null;
    const agent = await startAgent({
      dataDir,
      env: io.env,
      secretStore: await deps.secretStore(),
      transport: 'http',
      patientPageOrigin: () => origin,
      log,
    });
    // Upload failures on stderr, in the terminal's language; the job's id, never its patient's name.
    printUploadFailures(
      agent,
      (line) => io.stderr(`${line}\n`),
      terminalLanguage(io.env),
      (_origin, view) => `scanbridge serve: upload ${view.id}: `,
      'window',
    );
    let bridge;
    try {
      bridge = await startBridge({
        host: agent.host,
        staticDir: args.renderer,
        port: args.port,
        patient: { sessionOf: (t) => agent.consent.sessions.byToken(t)?.id ?? null, methods: patientMethodNames },
      });
      origin = `http://127.0.0.1:${bridge.port}`;
    } catch (e) {
      await agent.stop();
      closeCommandLog(log, 1, startedAt);
      const lang = terminalLanguage(io.env);
      const reason = listenReason(e, lang);
      io.stderr(`scanbridge serve: ${t(lang, 'cli.serve.cannotListen', { port: args.port, reason })}\n`);
      return 1;
    }
    io.stdout(`${JSON.stringify({ url: bridge.url, port: bridge.port, token: bridge.token })}\n`);
    if (!io.signal.aborted)
      await new Promise<void>((r) => io.signal.addEventListener('abort', () => r(), { once: true }));
    const running = bridge;
    const stopped = (async () => {
      await running.close();
      await agent.stop();
    })();
    // A service manager gives a stopping process a few seconds before it kills it. Uploads and the
    // inbox are journaled as they go (they survive kill -9), so past the deadline it is safe to go.
    let deadline: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([
      stopped.then(() => true),
      new Promise<false>((r) => (deadline = setTimeout(() => r(false), STOP_DEADLINE_MS))),
    ]);
    clearTimeout(deadline);
    releaseSignals();
    if (!inTime) {
      log.warn('still stopping past the deadline; exiting now (unfinished uploads resume on the next start)', {
        ms: STOP_DEADLINE_MS,
      });
      closeCommandLog(log, 0, startedAt);
      process.exit(0);
    }
    closeCommandLog(log, 0, startedAt);
    return 0;
  };
}

/**
 * The settings store's file writer (conf → atomically → when-exit) answers SIGINT/SIGTERM by
 * sending the same signal again once its own handler is gone, which would kill the process before
 * the agent has stopped. A lasting handler absorbs that echo; a signal sent well after the first
 * (the user pressing Ctrl+C again) still ends the process at once.
 */
function absorbRepeatedSignals(): () => void {
  let first = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    const now = Date.now();
    if (first === 0) first = now;
    else if (now - first > 1000) process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
