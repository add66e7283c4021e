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
import { receiveWords } from './words/receive-words';
import { printUploadFailures } from './words/upload-failure-lines';
import { terminalLanguage } from '../net/failure-words';

const TYPES = { auto: 'from_dicom', cbct: 'cbct', radiografia: 'radiografia', mesh: 'mesh', atm: 'atm' } as const;

const HELP = `Usage: scanbridge receive [--port <n>] [--aet <AE title>] [--quiet <s>] [--type auto|cbct|radiografia|mesh|atm] [--json]

Runs ScanBridge's DICOM listener (a storage SCP: C-ECHO and C-STORE) so that a scanner can send
its studies over the network, and uploads every complete study, one exam per study. Runs until
Ctrl+C (or SIGTERM), then stops cleanly.

On the scanner, add a DICOM destination ("PACS node") with this computer's address, the port and
the AE title below; its "Test" (C-ECHO) should then succeed.

A study is complete once the association that carried it was released and no object of it arrived
for the quiet time. Objects of an aborted association are kept, but that study waits for the
scanner to send it again and is never uploaded as it stands. A study sent again after its upload
makes no second exam.

  --port <n>      TCP port (default ${DEFAULT_DICOM_LISTENER.port}; 0 picks a free one)
  --aet <title>   our AE title, the one the scanner must call (default ${DEFAULT_DICOM_LISTENER.ae_title})
  --quiet <s>     quiet time in seconds (default ${DEFAULT_DICOM_LISTENER.quiet_seconds})
  --type <type>   exam type: auto (from the DICOM headers, the default), cbct, radiografia, mesh, atm
  --json          one JSON line per exam ready on stdout

Output: the first stdout line is {"listening":{"port":N,"aet":"…"}}; with --json, then one line
per exam ready: {"event":"ready","study_uid":"…","exam_id":"…","files":N,"bytes":B}
`;

/** HELP in Spanish, for a Spanish terminal (terminalLanguage). */
const HELP_ES = `Uso: scanbridge receive [--port <n>] [--aet <título AE>] [--quiet <s>] [--type auto|cbct|radiografia|mesh|atm] [--json]

Ejecuta el receptor DICOM de ScanBridge (un SCP de almacenamiento: C-ECHO y C-STORE) para que un
escáner envíe sus estudios por la red, y sube cada estudio completo, un examen por estudio. Corre
hasta Ctrl+C (o SIGTERM) y luego se detiene limpiamente.

En el escáner, agregue un destino DICOM ("nodo PACS") con la dirección de este equipo, el puerto y
el título AE de abajo; su "Prueba" (C-ECHO) debería funcionar entonces.

Un estudio está completo cuando la asociación que lo trajo terminó y no llegó ningún objeto suyo
durante el tiempo de espera. Los objetos de una asociación interrumpida se guardan, pero ese estudio
espera a que el escáner lo envíe de nuevo y nunca se sube tal como está. Un estudio enviado otra
vez después de subirse no crea un segundo examen.

  --port <n>      puerto TCP (por omisión ${DEFAULT_DICOM_LISTENER.port}; 0 elige uno libre)
  --aet <título>  nuestro título AE, el que debe llamar el escáner (por omisión ${DEFAULT_DICOM_LISTENER.ae_title})
  --quiet <s>     tiempo de espera en segundos (por omisión ${DEFAULT_DICOM_LISTENER.quiet_seconds})
  --type <tipo>   tipo de examen: auto (desde los encabezados DICOM, por omisión), cbct, radiografia, mesh, atm
  --json          una línea JSON en stdout por cada examen listo

Salida: la primera línea de stdout es {"listening":{"port":N,"aet":"…"}}; con --json, luego una
línea por examen listo: {"event":"ready","study_uid":"…","exam_id":"…","files":N,"bytes":B}
`;

type Args = { config: ReceiveConfig; json: boolean; help: boolean };

function numberIn(value: string, name: string, min: number, max: number, integer: boolean): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n)))
    throw new UsageError(
      `${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`,
      `${name} debe ser un número${integer ? ' entero' : ''} entre ${min} y ${max}`,
    );
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
  if (!/^[\x20-\x5b\x5d-\x7e]{1,16}$/.test(aeTitle))
    throw new UsageError(
      '--aet must be 1 to 16 plain characters without a backslash',
      '--aet debe tener de 1 a 16 caracteres simples, sin barra invertida',
    );
  const type = values.type ?? 'auto';
  if (!(type in TYPES))
    throw new UsageError(
      '--type must be auto, cbct, radiografia, mesh or atm',
      '--type debe ser auto, cbct, radiografia, mesh o atm',
    );
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
function printActivity(agent: Agent, io: CliIo, json: boolean): void {
  const say = (t: string): void => io.stderr(`${escapeForTerminal(t)}\n`);
  const words = receiveWords(terminalLanguage(io.env));
  agent.receiver.onStatus.subscribe(
    (() => {
      let seen = { at: '', errors: 0 };
      return (s): void => {
        const { lines, next } = receiveStatusLines(s, seen, words);
        seen = next;
        for (const l of lines) say(l);
      };
    })(),
  );
  agent.activity.on('study:queued', (e) => {
    if (e.folderId === RECEIVER_FOLDER_ID) say(words.queued(e.study.files, e.study.bytes, e.exam_type));
  });
  agent.activity.on('study:skipped', (e) => {
    if (e.folderId === RECEIVER_FOLDER_ID) say(words.alreadyUploaded(e.exam_id));
  });
  agent.activity.on('upload:ready', (e) => {
    if (e.origin?.folderId !== RECEIVER_FOLDER_ID) return;
    say(words.uploaded(e.view.exam_id ?? '', e.files, e.bytes));
    if (json)
      io.stdout(
        `${JSON.stringify({ event: 'ready', study_uid: e.origin.study_uid, exam_id: e.view.exam_id, files: e.files, bytes: e.bytes })}\n`,
      );
  });
  // Upload failures in the terminal's language (a network failure in its own words).
  printUploadFailures(
    agent,
    say,
    terminalLanguage(io.env),
    (origin) => (origin?.folderId === RECEIVER_FOLDER_ID ? '' : null),
    'none',
  );
}

/** `scanbridge receive`: see HELP. */
export function createReceiveCommand(deps: KeychainDeps): CliCommand {
  return async (io: CliIo) => {
    const args = parse(io.argv);
    if (args.help) {
      io.stdout(terminalLanguage(io.env) === 'es' ? HELP_ES : HELP);
      return 0;
    }
    const session = await openSession(io, 'receive', [], deps);
    if ('exit' in session) return session.exit;
    const dataDir = appDataDir(io.env);
    securePrivateFolders([dataDir, resolveConfigDir({ env: io.env })]);
    const startedAt = Date.now();
    const log = openCommandLog(io, 'receive', { dataDir, echo: true });
    let exit = 0;
    const say = (t: string): void => io.stderr(`${escapeForTerminal(t)}\n`);
    const words = receiveWords(terminalLanguage(io.env));
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
      printActivity(agent, io, args.json);
      await agent.receiver.applied();
      const status = agent.receiver.status();
      if (status.state !== 'listening' || status.port === null) {
        say(`scanbridge receive: ${status.message ?? words.notStarted}`);
        exit = 1;
        return exit;
      }
      io.stdout(`${JSON.stringify({ listening: { port: status.port, aet: args.config.aeTitle } })}\n`);
      say(words.listening(status.port, args.config.aeTitle));
      if (!io.signal.aborted)
        await new Promise<void>((r) => io.signal.addEventListener('abort', () => r(), { once: true }));
      say(words.stopping);
    } finally {
      await agent?.stop();
      process.off('SIGINT', absorb);
      process.off('SIGTERM', absorb);
      closeCommandLog(log, exit, startedAt);
    }
    say(words.stopped);
    return 0;
  };
}
