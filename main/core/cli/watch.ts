// `scanbridge watch <dir>... [--settle <s>] [--poll]` (CONTRACTS.md §2): watches scanner export
// folders and uploads every complete export, one exam per study, until interrupted. Human lines
// go to stderr; each uploaded exam is one JSON line on stdout.
import { basename, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { escapeForTerminal, stopScanWorkers } from '../dicom';
import type { Study } from '../dicom';
import { appDataDir } from '../paths';
import { securePrivateFolders } from '../private-fs';
import { resolveConfigDir } from '../settings/paths';
import { examsPortFromClient } from '../upload/api-port';
import { formatBytes } from '../upload/plan';
import type { ExamFields } from '../upload/ports';
import { engineUploader, Ledger, newAgentId, WatchService } from '../watch';
import type { ExportWaiting, IncompleteReason, WatchFolderConfig } from '../watch';
import type { CliCommand, CliIo } from './io';
import { UsageError } from './io';
import { clientFromCredentials, folderProblem, type KeychainDeps } from './session';
import { defaultExamName } from './upload';

export type WatchCommandDeps = KeychainDeps;

const DEFAULT_SETTLE_SECONDS = 10;

const HELP = `Usage: scanbridge watch <dir>... [--settle <seconds>] [--poll]

Watches each folder for scanner exports and uploads every complete export, one exam per study,
with the exam type the DICOM headers suggest. Runs until Ctrl+C (or SIGTERM), then stops cleanly;
an upload cut short resumes the same exam on the next run.

An export is a sub-folder of a watched folder (files lying directly in it form one more export).
It is complete when its files have been quiet for the settle period, their sizes are stable and
every file reads whole (no file cut short, no fewer images than its DICOMDIR lists).

Uploaded studies are recorded in the app data folder (SCANBRIDGE_DATA_DIR), so a restart does
not upload them again. Several computers (or processes) may watch the same shared folder: each
study is uploaded once, coordinated through small .scanbridge-* files in the export folder.

  --settle <s>   seconds an export must be quiet before it is checked (default ${DEFAULT_SETTLE_SECONDS})
  --poll         poll the folders instead of relying on change notifications (network shares)

Output: progress on stderr; for each uploaded exam one JSON line on stdout:
  {"exam_id":"…","status":"ready","files":N,"bytes":B,"study_uid":"…"}
`;

type Args = { dirs: string[]; settle: number; poll: boolean; help: boolean };

function parse(argv: string[]): Args {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { settle: { type: 'string' }, poll: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  if (values.help) return { dirs: [], settle: DEFAULT_SETTLE_SECONDS, poll: false, help: true };
  if (positionals.length === 0) throw new UsageError('give at least one folder to watch; see --help');
  let settle = DEFAULT_SETTLE_SECONDS;
  if (values.settle !== undefined) {
    settle = Number(values.settle);
    if (!Number.isFinite(settle) || settle < 0.1 || settle > 3600) throw new UsageError('--settle must be a number of seconds from 0.1 to 3600');
  }
  return { dirs: [...new Set(positionals.map((d) => resolve(d)))], settle, poll: values.poll ?? false, help: false };
}

/** The exam fields of an automatic upload: the upload command's default name and the DICOM prefill. */
function examFields(study: Study, examType: ExamFields['exam_type']): ExamFields {
  const fields: ExamFields = { name: defaultExamName(study) || 'Exam', exam_type: examType };
  if (study.patient_name) fields.patient_name = study.patient_name;
  if (study.patient_id) fields.patient_id = study.patient_id;
  if (study.birth_date) fields.birth_date = study.birth_date;
  return fields;
}

function describeReasons(reasons: readonly IncompleteReason[]): string {
  const counts = new Map<string, number>();
  const add = (k: string): void => void counts.set(k, (counts.get(k) ?? 0) + 1);
  for (const r of reasons) {
    if (r.kind === 'truncated_file' || r.kind === 'pixel_data_incomplete') add('file(s) cut short');
    else if (r.kind === 'unreadable_file') add('file(s) not readable (still open?)');
    else if (r.kind === 'fewer_files_than_dicomdir') counts.set(`image(s) missing from what the DICOMDIR lists`, r.expected - r.files);
    else add('change(s) while checking');
  }
  return [...counts].map(([what, n]) => `${n} ${what}`).join(', ');
}

/** `scanbridge watch`: see HELP. */
export function createWatchCommand(deps: WatchCommandDeps): CliCommand {
  return async (io: CliIo) => {
    const args = parse(io.argv);
    if (args.help) {
      io.stdout(HELP);
      return 0;
    }
    const fail = (message: string): number => {
      io.stderr(`scanbridge watch: ${message}\n`);
      return 1;
    };
    for (const dir of args.dirs) {
      const problem = await folderProblem(dir);
      if (problem) return fail(problem);
    }
    const session = await clientFromCredentials(io.env, deps);
    if ('problem' in session) return fail(session.problem);
    const { client } = session;
    const dataDir = appDataDir(io.env);
    securePrivateFolders([dataDir, resolveConfigDir({ env: io.env })]); // journals and the ledger hold patient data (core/private-fs.ts)
    const ledger = await Ledger.open(join(dataDir, 'watch', 'uploaded-studies.jsonl'));
    const folders: WatchFolderConfig[] = args.dirs.map((path, i) => ({ id: `cli-${i + 1}`, path, exam_type: 'from_dicom', mode: 'auto', settle_seconds: args.settle, polling: args.poll }));
    const byId = new Map(folders.map((f) => [f.id, f]));
    // Paths relative to the watched folder: enough to find the export, without full paths in every line.
    const where = (folderId: string, exportPath: string): string => {
      const root = byId.get(folderId)?.path ?? '';
      const rel = relative(root, exportPath);
      return rel === '' ? `${basename(root)}/ (loose files)` : `${basename(root)}/${rel}`;
    };
    // Lines quote folder and file names and header values: never raw control characters.
    const say = (t: string): void => io.stderr(`${escapeForTerminal(t)}\n`);

    const service = new WatchService({
      folders,
      ledger,
      claims: { agentId: newAgentId() },
      upload: engineUploader({
        port: examsPortFromClient(client),
        dataDir,
        fields: examFields,
        onEvent: (task, e) => {
          if (e.type === 'notice') say(`${where(task.folder.id, task.exportPath)}: ${e.message}`);
        },
      }),
    });
    const c = service.coordinator;
    c.on('study:uploading', (e) => say(`${where(e.folderId, e.exportPath)}: uploading a ${e.study.modality || 'DICOM'} study as ${e.exam_type} (${e.study.files} files, ${formatBytes(e.study.bytes)})…`));
    c.on('study:uploaded', (e) => {
      say(`${where(e.folderId, e.exportPath)}: uploaded as exam ${e.exam_id} (${e.files} files, ${formatBytes(e.bytes)}).`);
      io.stdout(`${JSON.stringify({ exam_id: e.exam_id, status: 'ready', files: e.files, bytes: e.bytes, study_uid: e.study.study_uid })}\n`);
    });
    c.on('study:skipped', (e) =>
      say(`${where(e.folderId, e.exportPath)}: already uploaded as exam ${e.exam_id}${e.reason === 'uploaded_elsewhere' ? ' (recorded in the export folder)' : ''}; skipped.`),
    );
    c.on('study:changed', (e) =>
      say(`${where(e.folderId, e.exportPath)}: a study uploaded before as exam ${e.exam_id} now has different files (${e.study.files}); not uploaded again — review it in the app or upload the folder with \`scanbridge upload\`.`),
    );
    c.on('study:held', (e) => say(`${where(e.folderId, e.exportPath)}: another computer is uploading this study (${e.by}); waiting for it.`));
    c.on('study:unclaimable', (e) => say(`${where(e.folderId, e.exportPath)}: ${e.reason}; uploading without coordinating with other computers.`));
    c.on('study:warning', (e) => say(`${where(e.folderId, e.exportPath)}: warning: ${e.message}`));
    c.on('study:failed', (e) => say(`${where(e.folderId, e.exportPath)}: upload failed: ${e.error.message} (it is tried again when the export changes or on the next start).`));
    for (const w of service.watchers) {
      w.on('export:ready', (e) => say(`${where(e.folderId, e.exportPath)}: export complete, ${e.studies.length} ${e.studies.length === 1 ? 'study' : 'studies'}.`));
      w.on('export:changed', (e) => say(`${where(e.folderId, e.exportPath)}: export changed after it was complete; checking its studies again.`));
      w.on('export:waiting', (e: ExportWaiting) => say(`${where(e.folderId, e.exportPath)}: not complete yet: ${describeReasons(e.reasons)}.`));
      w.on('error', (err) => say(`scanbridge watch: ${err.message}`));
    }

    if (client.sandbox) say('Using a SANDBOX key: uploaded exams are test data.');
    // The settings store (conf → atomically → when-exit) answers SIGINT/SIGTERM by raising the
    // signal again once its own one-shot handler has run; with no listener left, that second
    // signal would kill the process before it stops cleanly. A standing listener absorbs it.
    const absorb = (): void => undefined;
    process.on('SIGINT', absorb);
    process.on('SIGTERM', absorb);
    try {
      await service.start();
      say(`Watching ${folders.length} ${folders.length === 1 ? 'folder' : 'folders'} (settle ${args.settle} s${args.poll ? ', polling' : ''}). Press Ctrl+C to stop.`);
      if (!io.signal.aborted) await new Promise<void>((r) => io.signal.addEventListener('abort', () => r(), { once: true }));
      say('Stopping…');
    } finally {
      await service.close();
      await stopScanWorkers();
      process.off('SIGINT', absorb);
      process.off('SIGTERM', absorb);
    }
    say('Stopped.');
    return 0;
  };
}
