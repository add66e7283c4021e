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
import { printUploadFailures } from './words/job-failure-words';
import { terminalLanguage } from '../net/failure-words';
import { t, type Language } from '../i18n';
import { formatBytes } from '../format-bytes';

export type WatchCommandDeps = KeychainDeps;

const DEFAULT_SETTLE_SECONDS = 10;

type Args = { dirs: string[]; settle: number; poll: boolean; help: boolean };

function parse(argv: string[]): Args {
  const { values, positionals } = parseCommandLine(
    argv,
    { settle: { type: 'string' }, poll: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    true,
  );
  if (values.help) return { dirs: [], settle: DEFAULT_SETTLE_SECONDS, poll: false, help: true };
  if (positionals.length === 0) throw UsageError.of('cli.usageError.watchFolder');
  let settle = DEFAULT_SETTLE_SECONDS;
  if (values.settle !== undefined) {
    settle = Number(values.settle);
    if (!Number.isFinite(settle) || settle < 0.1 || settle > 3600) throw UsageError.of('cli.usageError.settle');
  }
  // One watcher per folder, however many spellings of its path were given (folder-identity.ts).
  const dirs = new Map(positionals.map((d) => [folderIdentity(d), canonicalFolder(d)]));
  return { dirs: [...dirs.values()], settle, poll: values.poll ?? false, help: false };
}

/** At most this many files are named in a "not complete yet" line; the rest are counted. */
const NAMED_FILES = 5;

function describeReasons(exportPath: string, reasons: readonly IncompleteReason[], lang: Language): string {
  const files = new Map<string, string[]>();
  const add = (k: string, path: string): void => void files.set(k, [...(files.get(k) ?? []), path]);
  const parts: string[] = [];
  let changes = 0;
  for (const r of reasons) {
    if (r.kind === 'truncated_file' || r.kind === 'pixel_data_incomplete') add(t(lang, 'cli.watch.cutShort'), r.path);
    else if (r.kind === 'unreadable_file') add(t(lang, 'cli.watch.unreadable'), r.path);
    else if (r.kind === 'fewer_files_than_dicomdir')
      parts.push(`${r.expected - r.files} ${t(lang, 'cli.watch.missingFromDicomdir')}`);
    else changes += 1;
  }
  if (changes > 0) parts.push(`${changes} ${t(lang, 'cli.watch.changedWhileChecking')}`);
  // The files by their path in the export, so the operator knows which program to close.
  const named = (paths: readonly string[]): string => {
    const names = [...new Set(paths)].map((p) => relative(exportPath, p).split(sep).join('/') || basename(p));
    const more = names.length - NAMED_FILES;
    return `${names.slice(0, NAMED_FILES).join(', ')}${more > 0 ? t(lang, 'cli.watch.andMore', { n: more }) : ''}`;
  };
  const listed = [...files].map(([what, paths]) => `${new Set(paths).size} ${what}: ${named(paths)}`);
  return [...listed, ...parts].join('; ');
}

/** A local date and time for a line of the terminal ("27/11/2026, 14:05"). */
function localTime(iso: string, lang: Language): string {
  return new Date(iso).toLocaleString(lang === 'es' ? 'es-CL' : 'en-GB', { dateStyle: 'short', timeStyle: 'short' });
}

/** A watched folder out of reach (a share dropped, renamed away, not mounted yet). */
export function folderLostLine(path: string, since: string, lang: Language): string {
  return t(lang, 'cli.watch.folderLost', { path, since: localTime(since, lang) });
}

export function folderBackLine(path: string, lang: Language): string {
  return t(lang, 'cli.watch.folderBack', { path });
}

/**
 * The console printer: one human line on stderr per thing worth knowing, one JSON line on stdout
 * per exam ready. Lines name the export by its path under the watched folder and never carry
 * patient data (export folders are sometimes named after the patient: that much is the clinic's).
 */
function printActivity(agent: Agent, folders: readonly WatchFolderConfig[], io: CliIo): void {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const lang = terminalLanguage(io.env);
  const where = (folderId: string | null, exportPath: string): string => {
    const root = (folderId ? byId.get(folderId)?.path : undefined) ?? exportPath;
    const rel = relative(root, exportPath);
    return rel === '' ? `${basename(root)}/ ${t(lang, 'cli.watch.loose')}` : `${basename(root)}/${rel}`;
  };
  // Lines quote folder and file names and header values: never raw control characters.
  const say = (text: string): void => io.stderr(`${escapeForTerminal(text)}\n`);
  const on = <K extends keyof ActivityEvents>(name: K, listener: (...args: ActivityEvents[K]) => void): void =>
    void agent.activity.on(name, listener as never);
  on('export:ready', (e) =>
    say(`${where(e.folderId, e.exportPath)}: ${t(lang, 'cli.watch.ready', { count: e.studies.length })}`),
  );
  on('export:changed', (e) => say(`${where(e.folderId, e.exportPath)}: ${t(lang, 'cli.watch.changed')}`));
  on('export:waiting', (e) =>
    say(
      `${where(e.folderId, e.exportPath)}: ${t(lang, 'cli.watch.waiting', { reasons: describeReasons(e.exportPath, e.reasons, lang) })}`,
    ),
  );
  on('watch:error', (e) => say(`scanbridge watch: ${e.error.message}`));
  on('folder:lost', (e) => say(folderLostLine(e.path, e.since, lang)));
  on('folder:appeared', (e) => {
    if (e.lostSince) say(folderBackLine(e.path, lang));
  });
  on('study:queued', (e) =>
    say(
      `${where(e.folderId, e.exportPath)}: ${t(lang, 'cli.watch.uploading', { modality: e.study.modality || 'DICOM', type: e.exam_type, files: e.study.files, size: formatBytes(e.study.bytes, lang) })}`,
    ),
  );
  on('study:skipped', (e) =>
    say(
      `${where(e.folderId, e.exportPath)}: ${t(lang, 'cli.watch.alreadyUploaded', { examId: e.exam_id, where: e.reason === 'uploaded_elsewhere' ? t(lang, 'cli.watch.recordedInExport') : '' })}`,
    ),
  );
  on('study:held', (e) => say(`${where(e.folderId, e.exportPath)}: ${t(lang, 'cli.watch.held', { by: e.by })}`));
  on('study:unclaimable', (e) =>
    say(`${where(e.folderId, e.exportPath)}: ${t(lang, 'cli.watch.unclaimable', { reason: e.reason })}`),
  );
  on('study:failed', (e) => {
    const full = diskFullIn(e.error);
    const words = full
      ? `${diskFullWords(full.folder, full.needed, lang)} ${t(lang, 'cli.watch.resumesWithRoom')}`
      : t(lang, 'cli.watch.failed', { message: e.error.message });
    say(`${where(e.folderId, e.exportPath)}: ${words}`);
  });
  on('upload:ready', (e) => {
    const at = e.origin ? where(e.origin.folderId, e.origin.exportPath) : 'upload';
    say(
      `${at}: ${t(lang, 'cli.watch.uploaded', { examId: e.view.exam_id ?? '', files: e.files, size: formatBytes(e.bytes, lang) })}`,
    );
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

/** `scanbridge watch`: see its help (cli.help.watch in the catalogue). */
export function createWatchCommand(deps: WatchCommandDeps): CliCommand {
  return async (io: CliIo) => {
    const args = parse(io.argv);
    if (args.help) {
      io.stdout(t(terminalLanguage(io.env), 'cli.help.watch', { settle: DEFAULT_SETTLE_SECONDS }));
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
    const say = (text: string): void => io.stderr(`${escapeForTerminal(text)}\n`);
    const lang = terminalLanguage(io.env);
    if (session.client.sandbox) say(t(lang, 'cli.watch.sandbox'));
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
      say(
        t(lang, 'cli.watch.watching', {
          count: folders.length,
          settle: args.settle,
          polling: args.poll ? t(lang, 'cli.watch.polling') : '',
        }),
      );
      if (!io.signal.aborted)
        await new Promise<void>((r) => io.signal.addEventListener('abort', () => r(), { once: true }));
      say(t(lang, 'cli.watch.stopping'));
    } finally {
      await agent?.stop();
      process.off('SIGINT', absorb);
      process.off('SIGTERM', absorb);
      closeCommandLog(log, 0, startedAt);
    }
    say(t(lang, 'cli.watch.stopped'));
    return 0;
  };
}
