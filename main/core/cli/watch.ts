// `scanbridge watch <dir>... [--settle <s>] [--poll]` (CONTRACTS.md §2): watches scanner export
// folders and uploads every complete export, one exam per study, until interrupted. Human lines
// go to stderr; each uploaded exam is one JSON line on stdout.
import { basename, join, relative, sep } from 'node:path';
import type { ActivityEvents, Agent } from '../agent';
import { startAgent } from '../agent';
import { closeCommandLog, openCommandLog } from './session/command-log';
import { diskFullIn, diskFullWords } from '../disk-full';
import { escapeForTerminal } from '../dicom';
import { canonicalFolder, folderIdentity } from '../folder-identity';
import { appDataDir } from '../paths';
import { securePrivateFolders } from '../private-fs';
import { resolveConfigDir } from '../settings/config-dir';
import type { IncompleteReason, WatchFolderConfig } from '../watch';
import type { CliCommand, CliIo } from './session/io';
import { parseCommandLine, UsageError } from './session/io';
import { type KeychainDeps, openSession } from './session/command-session';
import { printUploadFailures } from './words/upload-failure-lines';
import { terminalLanguage } from '../net/failure-words';
import { watchWords, type WatchWords } from './words/watch-words';

export type WatchCommandDeps = KeychainDeps;

const DEFAULT_SETTLE_SECONDS = 10;

const HELP = `Usage: scanbridge watch <dir>... [--settle <seconds>] [--poll]

Watches each folder for scanner exports and uploads every complete export, one exam per study,
with the exam type the DICOM headers suggest and the exam name the app would propose (the
clinic's name template). Runs until Ctrl+C (or SIGTERM), then stops cleanly; an upload cut short
resumes the same exam on the next run. One upload that keeps failing does not hold up the others.

An export is a sub-folder of a watched folder (files lying directly in it form one more export).
It is complete when its files have been quiet for the settle period, their sizes are stable and
every file reads whole (no file cut short, no fewer images than its DICOMDIR lists). A folder
that does not exist yet (a share not mounted) is watched as soon as it appears.

Uploaded studies are recorded in the app data folder (SCANBRIDGE_DATA_DIR), so a restart does
not upload them again. Several computers (or processes) may watch the same shared folder: each
study is uploaded once, coordinated through small .scanbridge-* files in the export folder.

  --settle <s>   seconds an export must be quiet before it is checked (default ${DEFAULT_SETTLE_SECONDS})
  --poll         poll the folders instead of relying on change notifications (network shares)

Output: progress on stderr; for each uploaded exam one JSON line on stdout:
  {"exam_id":"…","status":"ready","files":N,"bytes":B,"study_uid":"…"}
`;

/** HELP in Spanish, for a Spanish terminal (terminalLanguage). */
const HELP_ES = `Uso: scanbridge watch <carpeta>... [--settle <segundos>] [--poll]

Vigila cada carpeta en busca de exportaciones del escáner y sube cada exportación completa, un
examen por estudio, con el tipo de examen que sugieren los encabezados DICOM y el nombre de examen
que propondría la aplicación (la plantilla de nombres de la clínica). Corre hasta Ctrl+C (o
SIGTERM) y luego se detiene limpiamente; una subida interrumpida continúa el mismo examen en la
siguiente ejecución. Una subida que sigue fallando no detiene a las demás.

Una exportación es una subcarpeta de una carpeta vigilada (los archivos sueltos directamente en
ella forman una exportación más). Está completa cuando sus archivos llevan el tiempo de espera sin
cambios, sus tamaños son estables y cada archivo se lee entero (ninguno incompleto, no menos
imágenes de las que lista su DICOMDIR). Una carpeta que aún no existe (una carpeta compartida sin
montar) se vigila en cuanto aparece.

Los estudios subidos se registran en la carpeta de datos de la aplicación (SCANBRIDGE_DATA_DIR),
así que al reiniciar no se suben de nuevo. Varios equipos (o procesos) pueden vigilar la misma
carpeta compartida: cada estudio se sube una vez, coordinado con pequeños archivos .scanbridge-*
en la carpeta de la exportación.

  --settle <s>   segundos sin cambios antes de revisar una exportación (por omisión ${DEFAULT_SETTLE_SECONDS})
  --poll         revisa las carpetas periódicamente en vez de esperar avisos de cambios (carpetas de red)

Salida: el avance en stderr; por cada examen subido, una línea JSON en stdout:
  {"exam_id":"…","status":"ready","files":N,"bytes":B,"study_uid":"…"}
`;

type Args = { dirs: string[]; settle: number; poll: boolean; help: boolean };

function parse(argv: string[]): Args {
  const { values, positionals } = parseCommandLine(
    argv,
    { settle: { type: 'string' }, poll: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    true,
  );
  if (values.help) return { dirs: [], settle: DEFAULT_SETTLE_SECONDS, poll: false, help: true };
  if (positionals.length === 0)
    throw new UsageError(
      'give at least one folder to watch; see --help',
      'indique al menos una carpeta que vigilar; vea --help',
    );
  let settle = DEFAULT_SETTLE_SECONDS;
  if (values.settle !== undefined) {
    settle = Number(values.settle);
    if (!Number.isFinite(settle) || settle < 0.1 || settle > 3600)
      throw new UsageError(
        '--settle must be a number of seconds from 0.1 to 3600',
        '--settle debe ser un número de segundos entre 0.1 y 3600',
      );
  }
  // One watcher per folder, however many spellings of its path were given (folder-identity.ts).
  const dirs = new Map(positionals.map((d) => [folderIdentity(d), canonicalFolder(d)]));
  return { dirs: [...dirs.values()], settle, poll: values.poll ?? false, help: false };
}

/** At most this many files are named in a "not complete yet" line; the rest are counted. */
const NAMED_FILES = 5;

function describeReasons(exportPath: string, reasons: readonly IncompleteReason[], w: WatchWords): string {
  const files = new Map<string, string[]>();
  const add = (k: string, path: string): void => void files.set(k, [...(files.get(k) ?? []), path]);
  const parts: string[] = [];
  let changes = 0;
  for (const r of reasons) {
    if (r.kind === 'truncated_file' || r.kind === 'pixel_data_incomplete') add(w.cutShort, r.path);
    else if (r.kind === 'unreadable_file') add(w.unreadable, r.path);
    else if (r.kind === 'fewer_files_than_dicomdir') parts.push(`${r.expected - r.files} ${w.missingFromDicomdir}`);
    else changes += 1;
  }
  if (changes > 0) parts.push(`${changes} ${w.changedWhileChecking}`);
  // The files by their path in the export, so the operator knows which program to close.
  const named = (paths: readonly string[]): string => {
    const names = [...new Set(paths)].map((p) => relative(exportPath, p).split(sep).join('/') || basename(p));
    const more = names.length - NAMED_FILES;
    return `${names.slice(0, NAMED_FILES).join(', ')}${more > 0 ? w.andMore(more) : ''}`;
  };
  const listed = [...files].map(([what, paths]) => `${new Set(paths).size} ${what}: ${named(paths)}`);
  return [...listed, ...parts].join('; ');
}

/** A local date and time for a line of the terminal ("27/11/2026, 14:05"). */
function localTime(iso: string, lang: 'es' | 'en'): string {
  return new Date(iso).toLocaleString(lang === 'es' ? 'es-CL' : 'en-GB', { dateStyle: 'short', timeStyle: 'short' });
}

/** A watched folder out of reach (a share dropped, renamed away, not mounted yet). */
export function folderLostLine(path: string, since: string, lang: 'es' | 'en'): string {
  return lang === 'es'
    ? `scanbridge watch: no se puede acceder a la carpeta ${path} desde ${localTime(since, lang)}; se la sigue buscando y se vuelve a vigilar cuando regrese.`
    : `scanbridge watch: the folder ${path} cannot be reached since ${localTime(since, lang)}; it is looked for and watched again when it returns.`;
}

export function folderBackLine(path: string, lang: 'es' | 'en'): string {
  return lang === 'es'
    ? `scanbridge watch: la carpeta ${path} está de vuelta; se vigila otra vez y se revisa lo que llegó mientras tanto.`
    : `scanbridge watch: the folder ${path} is back; it is watched again and what arrived meanwhile is checked.`;
}

/**
 * The console printer: one human line on stderr per thing worth knowing, one JSON line on stdout
 * per exam ready. Lines name the export by its path under the watched folder and never carry
 * patient data (export folders are sometimes named after the patient: that much is the clinic's).
 */
function printActivity(agent: Agent, folders: readonly WatchFolderConfig[], io: CliIo): void {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const lang = terminalLanguage(io.env);
  const w = watchWords(lang);
  const where = (folderId: string | null, exportPath: string): string => {
    const root = (folderId ? byId.get(folderId)?.path : undefined) ?? exportPath;
    const rel = relative(root, exportPath);
    return rel === '' ? `${basename(root)}/ ${w.loose}` : `${basename(root)}/${rel}`;
  };
  // Lines quote folder and file names and header values: never raw control characters.
  const say = (t: string): void => io.stderr(`${escapeForTerminal(t)}\n`);
  const on = <K extends keyof ActivityEvents>(name: K, listener: (...args: ActivityEvents[K]) => void): void =>
    void agent.activity.on(name, listener as never);
  on('export:ready', (e) => say(`${where(e.folderId, e.exportPath)}: ${w.ready(e.studies.length)}`));
  on('export:changed', (e) => say(`${where(e.folderId, e.exportPath)}: ${w.changed}`));
  on('export:waiting', (e) =>
    say(`${where(e.folderId, e.exportPath)}: ${w.waiting(describeReasons(e.exportPath, e.reasons, w))}`),
  );
  on('watch:error', (e) => say(`scanbridge watch: ${e.error.message}`));
  on('folder:lost', (e) => say(folderLostLine(e.path, e.since, lang)));
  on('folder:appeared', (e) => {
    if (e.lostSince) say(folderBackLine(e.path, lang));
  });
  on('study:queued', (e) =>
    say(
      `${where(e.folderId, e.exportPath)}: ${w.uploading(e.study.modality, e.exam_type, e.study.files, e.study.bytes)}`,
    ),
  );
  on('study:skipped', (e) =>
    say(`${where(e.folderId, e.exportPath)}: ${w.alreadyUploaded(e.exam_id, e.reason === 'uploaded_elsewhere')}`),
  );
  on('study:held', (e) => say(`${where(e.folderId, e.exportPath)}: ${w.held(e.by)}`));
  on('study:unclaimable', (e) => say(`${where(e.folderId, e.exportPath)}: ${w.unclaimable(e.reason)}`));
  on('study:failed', (e) => {
    const full = diskFullIn(e.error);
    const words = full
      ? `${diskFullWords(full.folder, full.needed, lang)} ${w.resumesWithRoom}`
      : w.failed(e.error.message);
    say(`${where(e.folderId, e.exportPath)}: ${words}`);
  });
  on('upload:ready', (e) => {
    const at = e.origin ? where(e.origin.folderId, e.origin.exportPath) : 'upload';
    say(`${at}: ${w.uploaded(e.view.exam_id ?? '', e.files, e.bytes)}`);
    io.stdout(
      `${JSON.stringify({ exam_id: e.view.exam_id, status: 'ready', files: e.files, bytes: e.bytes, study_uid: e.origin?.study_uid ?? null })}\n`,
    );
  });
  // Upload failures in the terminal's language (a network failure in its own words).
  printUploadFailures(
    agent,
    say,
    lang,
    (origin) => `${origin ? where(origin.folderId, origin.exportPath) : 'upload'}: `,
    'export_changes',
  );
}

/** `scanbridge watch`: see HELP. */
export function createWatchCommand(deps: WatchCommandDeps): CliCommand {
  return async (io: CliIo) => {
    const args = parse(io.argv);
    if (args.help) {
      io.stdout(terminalLanguage(io.env) === 'es' ? HELP_ES : HELP);
      return 0;
    }
    const session = await openSession(io, 'watch', args.dirs, deps);
    if ('exit' in session) return session.exit;
    const dataDir = appDataDir(io.env);
    securePrivateFolders([dataDir, resolveConfigDir({ env: io.env })]); // journals and the ledger hold patient data (core/private-fs.ts)
    const startedAt = Date.now();
    const log = openCommandLog(io, 'watch', { dataDir, echo: true });
    const folders: WatchFolderConfig[] = args.dirs.map((path, i) => ({
      id: `cli-${i + 1}`,
      path,
      exam_type: 'from_dicom',
      mode: 'auto',
      settle_seconds: args.settle,
      polling: args.poll,
    }));
    // Lines quote folder and file names and header values: never raw control characters.
    const say = (t: string): void => io.stderr(`${escapeForTerminal(t)}\n`);
    const w = watchWords(terminalLanguage(io.env));
    if (session.client.sandbox) say(w.sandbox);
    // The settings store (conf → atomically → when-exit) answers SIGINT/SIGTERM by raising the
    // signal again once its own one-shot handler has run; with no listener left, that second
    // signal would kill the process before it stops cleanly. A standing listener absorbs it.
    const absorb = (): void => undefined;
    process.on('SIGINT', absorb);
    process.on('SIGTERM', absorb);
    let agent: Agent | undefined;
    try {
      agent = await startAgent({
        dataDir,
        // Its own inbox and upload list, so the app can run beside it; ledger and journals are shared.
        stateDir: join(dataDir, 'watch', 'agent'),
        folders,
        env: io.env,
        secretStore: await deps.secretStore(),
        transport: 'http',
        notifier: { notify: () => undefined },
        log,
      });
      printActivity(agent, folders, io);
      say(w.watching(folders.length, args.settle, args.poll));
      if (!io.signal.aborted)
        await new Promise<void>((r) => io.signal.addEventListener('abort', () => r(), { once: true }));
      say(w.stopping);
    } finally {
      await agent?.stop();
      process.off('SIGINT', absorb);
      process.off('SIGTERM', absorb);
      closeCommandLog(log, 0, startedAt);
    }
    say(w.stopped);
    return 0;
  };
}
