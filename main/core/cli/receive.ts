// `scanbridge receive [--port <n>] [--aet <AE title>] [--quiet <s>] [--type …] [--json]`
// (CONTRACTS.md §2): runs the DICOM listener and uploads every complete received study, one exam
// per study, until SIGTERM. The first stdout line says where it listens; with --json, one line per
// exam that becomes ready. Human lines go to stderr and carry no patient data.
import { join } from 'node:path';
import type { Agent } from '../agent';
import { RECEIVER_FOLDER_ID, startAgent } from '../agent';
import { closeCommandLog, openCommandLog } from './session/command-log';
import { escapeForTerminal } from '../dicom';
import { appDataDir } from '../paths';
import { securePrivateFolders } from '../private-fs';
import type { ReceiveConfig } from '../receive';
import { resolveConfigDir } from '../settings/config-dir';
import { DEFAULT_DICOM_LISTENER } from '../settings/settings-schema';
import { type KeychainDeps, openSession } from './session/command-session';
import type { CliCommand, CliIo } from './session/io';
import { parseCommandLine, UsageError } from './session/io';
import { receiveStatusLines } from './receive-status';
import { t } from '../i18n';
import { receiveProblemWords } from '../receive/problem-words';
import { formatBytes } from '../format-bytes';
import { printUploadFailures } from './words/job-failure-words';
import { terminalLanguage } from '../net/failure-words';

const TYPES = { auto: 'from_dicom', cbct: 'cbct', radiografia: 'radiografia', mesh: 'mesh', atm: 'atm' } as const;

type Args = { config: ReceiveConfig; json: boolean; help: boolean };

function numberIn(value: string, name: string, min: number, max: number, integer: boolean): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n)))
    throw UsageError.of(integer ? 'cli.usageError.wholeNumber' : 'cli.usageError.number', { name, min, max });
  return n;
}

function parse(argv: string[]): Args {
  const { values } = parseCommandLine(
    argv,
    {
      port: { type: 'string' },
      aet: { type: 'string' },
      quiet: { type: 'string' },
      type: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    false,
  );
  const aeTitle = (values.aet ?? DEFAULT_DICOM_LISTENER.ae_title).trim();
  if (!/^[\x20-\x5b\x5d-\x7e]{1,16}$/.test(aeTitle)) throw UsageError.of('cli.usageError.aet');
  const type = values.type ?? 'auto';
  if (!(type in TYPES)) throw UsageError.of('cli.usageError.receiveType');
  const d = DEFAULT_DICOM_LISTENER;
  const config: ReceiveConfig = {
    aeTitle,
    port: values.port === undefined ? d.port : numberIn(values.port, '--port', 0, 65535, true),
    allowed: [],
    examType: TYPES[type as keyof typeof TYPES],
    quietSeconds: values.quiet === undefined ? d.quiet_seconds : numberIn(values.quiet, '--quiet', 0.1, 3600, false),
    stoppedAfterMinutes: d.stopped_after_minutes,
    mode: 'auto',
  };
  return { config, json: values.json ?? false, help: values.help ?? false };
}

/** Human lines on stderr; with --json, one stdout line per exam ready from the listener. */
function printActivity(agent: Agent, io: CliIo, json: boolean, folder: string): void {
  const say = (text: string): void => io.stderr(`${escapeForTerminal(text)}\n`);
  const lang = terminalLanguage(io.env);
  agent.receiver.onStatus.subscribe(
    (() => {
      let seen = { at: '', errors: 0 };
      return (s): void => {
        const { lines, next } = receiveStatusLines(s, seen, lang, folder);
        seen = next;
        for (const l of lines) say(l);
      };
    })(),
  );
  agent.activity.on('study:queued', (e) => {
    if (e.folderId === RECEIVER_FOLDER_ID)
      say(
        t(lang, 'cli.receive.queued', {
          files: e.study.files,
          size: formatBytes(e.study.bytes, lang),
          type: e.exam_type,
        }),
      );
  });
  agent.activity.on('study:skipped', (e) => {
    if (e.folderId === RECEIVER_FOLDER_ID) say(t(lang, 'cli.receive.alreadyUploaded', { examId: e.exam_id }));
  });
  agent.activity.on('upload:ready', (e) => {
    if (e.origin?.folderId !== RECEIVER_FOLDER_ID) return;
    say(
      t(lang, 'cli.receive.uploaded', {
        examId: e.view.exam_id ?? '',
        files: e.files,
        size: formatBytes(e.bytes, lang),
      }),
    );
    if (json)
      io.stdout(
        `${JSON.stringify({ event: 'ready', study_uid: e.origin.study_uid, exam_id: e.view.exam_id, files: e.files, bytes: e.bytes })}\n`,
      );
  });
  // Upload failures in the terminal's language (a network failure in its own words).
  printUploadFailures(agent, say, lang, (origin) => (origin?.folderId === RECEIVER_FOLDER_ID ? '' : null), 'none');
}

/** `scanbridge receive`: see its help (cli.help.receive in the catalogue). */
export function createReceiveCommand(deps: KeychainDeps): CliCommand {
  return async (io: CliIo) => {
    const args = parse(io.argv);
    if (args.help) {
      io.stdout(
        t(terminalLanguage(io.env), 'cli.help.receive', {
          port: DEFAULT_DICOM_LISTENER.port,
          aet: DEFAULT_DICOM_LISTENER.ae_title,
          quiet: DEFAULT_DICOM_LISTENER.quiet_seconds,
        }),
      );
      return 0;
    }
    const session = await openSession(io, 'receive', [], deps);
    if ('exit' in session) return session.exit;
    const dataDir = appDataDir(io.env);
    securePrivateFolders([dataDir, resolveConfigDir({ env: io.env })]);
    const startedAt = Date.now();
    const log = openCommandLog(io, 'receive', { dataDir, echo: true });
    let exit = 0;
    const say = (text: string): void => io.stderr(`${escapeForTerminal(text)}\n`);
    const lang = terminalLanguage(io.env);
    // See watch.ts: the settings store re-raises SIGINT/SIGTERM; a standing listener absorbs it.
    const absorb = (): void => undefined;
    process.on('SIGINT', absorb);
    process.on('SIGTERM', absorb);
    let agent: Agent | undefined;
    try {
      agent = await startAgent({
        dataDir,
        stateDir: join(dataDir, 'receive', 'agent'),
        folders: [],
        receiver: args.config,
        env: io.env,
        secretStore: await deps.secretStore(),
        transport: 'http',
        notifier: { notify: () => undefined },
        log,
      });
      printActivity(agent, io, args.json, join(dataDir, 'receive'));
      await agent.receiver.applied();
      const status = agent.receiver.status();
      if (status.state !== 'listening' || status.port === null) {
        const why = status.problem
          ? receiveProblemWords(status.problem, lang, join(dataDir, 'receive'))
          : t(lang, 'cli.receive.notStarted');
        say(`scanbridge receive: ${why}`);
        exit = 1;
        return exit;
      }
      io.stdout(`${JSON.stringify({ listening: { port: status.port, aet: args.config.aeTitle } })}\n`);
      say(t(lang, 'cli.receive.listening', { port: status.port, aet: args.config.aeTitle }));
      if (!io.signal.aborted)
        await new Promise<void>((r) => io.signal.addEventListener('abort', () => r(), { once: true }));
      say(t(lang, 'cli.receive.stopping'));
    } finally {
      await agent?.stop();
      process.off('SIGINT', absorb);
      process.off('SIGTERM', absorb);
      closeCommandLog(log, exit, startedAt);
    }
    say(t(lang, 'cli.receive.stopped'));
    return 0;
  };
}
