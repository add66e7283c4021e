// `scanbridge upload <dir> [--type …] [--mode files|zip|auto] [--name …]` (CONTRACTS.md §2): one
// exam from the DICOM and mesh files of a folder. Human progress goes to stderr; one JSON line
// goes to stdout at the end. Run again after any interruption, it resumes the same exam.
import { asDiskFull, DiskFullError, diskFullIn, diskFullWords } from '../disk-full';
import { relative, sep } from 'node:path';
import {
  escapeForTerminal,
  hasUnsafeText,
  ScanFolderError,
  scanFolder,
  stopScanWorkers,
  terminalSafeJson,
} from '../dicom';
import type { ScanResult } from '../dicom';
import { studyExamFields } from '../agent/inbox/inbox-prefill';
import { sleep } from '../api/http';
import { canonicalFolder } from '../folder-identity';
import { appDataDir } from '../paths';
import { ensurePrivateDir, tightenPrivateTree } from '../private-fs';
import { resolveConfigDir } from '../settings/config-dir';
import {
  describeCut,
  fitFieldsToService,
  describeIncomplete,
  type IncompleteFile,
  incompleteFiles,
  withoutIncomplete,
  MAX_PATIENT_ID_LENGTH,
  MAX_PATIENT_NAME_LENGTH,
  type JobPlan,
  planUpload,
  type PlanFileInput,
  type RequestedMode,
  settingsHash,
} from '../upload/plan';
import {
  readFirstRecord,
  acquireStudyLock,
  folderKey,
  pruneStudyLocks,
  type StudyLock,
  studyKey,
} from '../upload/journal';
import { examsPortFromClient, UploadError } from '../upload/ports';
import { type EngineOptions, UploadJob, type UploadResult, sweepOrphanArchives } from '../upload/job';
import { findFolderJobs, pruneFinishedJobs } from '../upload/state';
import { formatBytes } from '../format-bytes';
import type { ExamFields, ExamType, ExamsPort } from '../upload/ports';
import { type CliCommand, type CliIo, parseCommandLine, UsageError } from './session/io';
import { parseShareTo, shareAfterUpload } from './upload-share';
import type { ApiClient } from '../api';
import type { ShareIntent, SummaryRecord } from '../upload/journal';
import { type KeychainDeps, openSession } from './session/command-session';
import { closeCommandLog, openCommandLog } from './session/command-log';
import { errorCode, type Logger, studyHash } from '../log';
import { progressPrinter } from './upload-progress';
import { uploadFailureText } from './words/error-words';
import { uploadWords, type UploadWords } from './words/upload-words';
import { terminalLanguage } from '../net/failure-words';
import { t, type Language } from '../i18n';
import {
  chooseTransport,
  worthSampling,
  deflateWorkerCount,
  sharedDeflatePool,
  readLinkRates,
} from '../upload/compression';
import { COMPRESS_SETTINGS, type CompressSetting, EXAM_TYPES } from '../../../preload/contract/vocabulary';

export type UploadCommandDeps = KeychainDeps;

/** Exit code when another process is uploading the same study (EX_TEMPFAIL: try again later). */
export const EXIT_BUSY = 75;

const FINISHED_JOBS_KEPT_MS = 90 * 86_400_000;

const MODES: readonly RequestedMode[] = ['files', 'zip', 'auto'];

type Args = {
  dir: string;
  type?: ExamType;
  mode: RequestedMode;
  compress: CompressSetting;
  name?: string;
  patientName?: string;
  patientId?: string;
  allowIncomplete: boolean;
  waitMs: number;
  concurrency?: number;
  limitRate?: number;
  cancel: boolean;
  help: boolean;
  shareTo?: ShareIntent;
};

function parse(argv: string[]): Args {
  const { values, positionals } = parseCommandLine(
    argv,
    {
      type: { type: 'string' },
      mode: { type: 'string' },
      compress: { type: 'string' },
      name: { type: 'string' },
      'patient-name': { type: 'string' },
      'patient-id': { type: 'string' },
      'allow-incomplete': { type: 'boolean' },
      wait: { type: 'string' },
      concurrency: { type: 'string' },
      'limit-rate': { type: 'string' },
      cancel: { type: 'boolean' },
      'share-to': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (values.help)
    return { dir: '', mode: 'auto', compress: 'auto', cancel: false, help: true, allowIncomplete: false, waitMs: 0 };
  if (positionals.length !== 1 || !positionals[0]) throw UsageError.of('cli.usageError.oneFolder');
  const type = values.type;
  if (type !== undefined && !EXAM_TYPES.includes(type as ExamType))
    throw UsageError.of('cli.usageError.type', { types: EXAM_TYPES.join(', ') });
  const mode = values.mode ?? 'auto';
  if (!MODES.includes(mode as RequestedMode)) throw UsageError.of('cli.usageError.mode', { modes: MODES.join(', ') });
  const compress = values.compress ?? 'auto';
  if (!COMPRESS_SETTINGS.includes(compress as CompressSetting))
    throw UsageError.of('cli.usageError.compress', { values: COMPRESS_SETTINGS.join(', ') });
  if (values.name !== undefined && values.name.trim() === '') throw UsageError.of('cli.usageError.nameEmpty');
  for (const flag of ['name', 'patient-name', 'patient-id'] as const) {
    const v = values[flag];
    if (v !== undefined && hasUnsafeText(v)) throw UsageError.of('cli.usageError.controlChars', { flag });
  }
  if ((values['patient-name']?.length ?? 0) > MAX_PATIENT_NAME_LENGTH)
    throw UsageError.of('cli.usageError.patientNameMax', { max: MAX_PATIENT_NAME_LENGTH });
  if ((values['patient-id']?.length ?? 0) > MAX_PATIENT_ID_LENGTH)
    throw UsageError.of('cli.usageError.patientIdMax', { max: MAX_PATIENT_ID_LENGTH });
  let waitMs = 0;
  if (values.wait !== undefined) {
    const w = Number(values.wait);
    if (!Number.isFinite(w) || w < 0 || w > 86_400) throw UsageError.of('cli.usageError.wait');
    waitMs = Math.round(w * 1000);
  }
  let concurrency: number | undefined;
  if (values.concurrency !== undefined) {
    concurrency = Number(values.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32)
      throw UsageError.of('cli.usageError.concurrency');
  }
  let limitRate: number | undefined;
  if (values['limit-rate'] !== undefined) {
    const r = parseRate(values['limit-rate']);
    if (r === null) throw UsageError.of('cli.usageError.limitRate');
    limitRate = r;
  }
  return {
    dir: positionals[0],
    mode: mode as RequestedMode,
    compress: compress as CompressSetting,
    cancel: values.cancel ?? false,
    help: false,
    allowIncomplete: values['allow-incomplete'] ?? false,
    waitMs,
    ...(values['patient-name'] !== undefined ? { patientName: values['patient-name'] } : {}),
    ...(values['patient-id'] !== undefined ? { patientId: values['patient-id'] } : {}),
    ...(type ? { type: type as ExamType } : {}),
    ...(values.name !== undefined ? { name: values.name } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(limitRate !== undefined ? { limitRate } : {}),
    ...(values['share-to'] !== undefined ? { shareTo: parseShareTo(values['share-to']) } : {}),
  };
}

/** `500k` → 512000, `2M` → 2097152 (curl's --limit-rate units); null when not a rate. */
export function parseRate(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)([kKmMgG]?)$/.exec(text.trim());
  if (!m) return null;
  const mult = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(m[2] ?? '').toLowerCase()] ?? 1;
  const v = Math.round(Number(m[1]) * mult);
  return v > 0 ? v : null;
}

/** Files of every study found (DICOM and meshes), named by their path relative to `root`. */
function filesOf(root: string, scan: ScanResult): PlanFileInput[] {
  const out: PlanFileInput[] = [];
  for (const study of scan.studies) {
    for (const series of study.series) {
      for (const f of series.file_list) out.push({ path: f.path, name: relative(root, f.path).split(sep).join('/') });
    }
  }
  out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out;
}

function prefill(scan: ScanResult, args: Args, warn: (t: string) => void, w: UploadWords): ExamFields {
  const studies = [...scan.studies].sort((a, b) => b.files - a.files);
  const main = studies[0];
  if (!main) throw new UploadError('no_files', 'No DICOM or mesh files were found in the folder.');
  if (studies.length > 1) warn(w.manyStudies(studies.length));
  const patients = new Set(
    studies.filter((s) => s.suggested_exam_type !== 'mesh').map((s) => `${s.patient_id}\0${s.patient_name_raw}`),
  );
  if (patients.size > 1) warn(w.manyPatients);
  // The study's fields as the inbox would take them with no name template (--type as a folder's
  // exam type). What came from the headers is fitted to the service (cut with a warning); what the
  // user typed is taken as typed (a name that is too long is refused, not silently cut).
  const study = studyExamFields(main, args.type ?? 'from_dicom', null);
  const fromHeaders: ExamFields = { name: study.name, exam_type: study.exam_type };
  if (study.patient_name) fromHeaders.patient_name = study.patient_name;
  if (study.patient_id) fromHeaders.patient_id = study.patient_id;
  if (study.birth_date) fromHeaders.birth_date = study.birth_date;
  const fitted = fitFieldsToService(fromHeaders);
  const given = { name: args.name, patient_name: args.patientName, patient_id: args.patientId };
  for (const c of fitted.cuts) {
    if (given[c.field as keyof typeof given] !== undefined) continue;
    const flag =
      c.field === 'patient_name'
        ? ' (correct it with --patient-name)'
        : c.field === 'patient_id'
          ? ' (correct it with --patient-id)'
          : c.field === 'name'
            ? ' (correct it with --name)'
            : '';
    warn(`Warning: ${describeCut(c)}${flag}`);
  }
  const fields: ExamFields = { ...fitted.fields, name: args.name ?? fitted.fields.name };
  if (args.patientName !== undefined) fields.patient_name = args.patientName;
  if (args.patientId !== undefined) fields.patient_id = args.patientId;
  return fields;
}

/** `scanbridge upload`: see its help (cli.help.upload in the catalogue). */
export function createUploadCommand(deps: UploadCommandDeps): CliCommand {
  return async (io: CliIo) => {
    const args = parse(io.argv);
    if (args.help) {
      io.stdout(t(terminalLanguage(io.env), 'cli.help.upload'));
      return 0;
    }
    const fail = (message: string): number => {
      // Messages may quote file names, which come from the disk: never raw to the terminal.
      io.stderr(`scanbridge upload: ${escapeForTerminal(message)}\n`);
      return 1;
    };
    // The OS's name for the folder: a rerun with another spelling of its path finds the same job.
    const root = canonicalFolder(args.dir);
    const session = await openSession(io, 'upload', [root], deps);
    if ('exit' in session) return session.exit;
    const { client } = session;
    const port = examsPortFromClient(client);
    const dataDir = appDataDir(io.env);
    // Journals hold patient data: the data folder is private, and one an older version left
    // readable is tightened now (the config folder too).
    ensurePrivateDir(dataDir);
    tightenPrivateTree(dataDir);
    tightenPrivateTree(resolveConfigDir({ env: io.env }));
    const startedAt = Date.now();
    const log = openCommandLog(io, 'upload', { dataDir });
    let exit = 1;
    const options: EngineOptions = {
      ...(args.concurrency !== undefined ? { concurrency: args.concurrency } : {}),
      ...(args.limitRate !== undefined ? { bandwidthLimit: args.limitRate } : {}),
    };
    const deps2 = { port, dataDir, options };
    const warn = (t: string): void => io.stderr(`${t}\n`);
    const w = uploadWords(terminalLanguage(io.env));
    if (client.sandbox) warn(w.sandbox);

    // Summaries of finished uploads are only needed to recognise a repeated upload for a while.
    pruneFinishedJobs(dataDir, FINISHED_JOBS_KEPT_MS);
    sweepOrphanArchives(dataDir);
    pruneStudyLocks(dataDir, FINISHED_JOBS_KEPT_MS);
    const locks: StudyLock[] = [];
    // Another process uploading the same folder or study: stop (or wait), never touch its job.
    const lock = async (keys: string[]): Promise<number | null> => {
      const outcome = await acquireStudyLock(dataDir, keys, { waitMs: args.waitMs, signal: io.signal });
      if (outcome.kind === 'acquired') {
        locks.push(outcome.lock);
        return null;
      }
      io.stderr(`scanbridge upload: ${w.busy(outcome.holder.pid)}\n`);
      return EXIT_BUSY;
    };
    try {
      // The folder first: journals are found by folder, so no other process may be reading or
      // writing this folder's job while this one decides to resume or create.
      const busy = await lock([folderKey(root)]);
      if (busy !== null) return (exit = busy);
      exit = await uploadLocked(io, args, root, { client, port, dataDir, deps2, warn, fail, lock, log });
      return exit;
    } finally {
      for (const l of locks) l.release();
      closeCommandLog(log, exit, startedAt);
    }
  };
}

type LockedContext = {
  client: ApiClient;
  port: ExamsPort;
  dataDir: string;
  deps2: { port: ExamsPort; dataDir: string; options: EngineOptions };
  warn: (t: string) => void;
  fail: (message: string) => number;
  lock: (keys: string[]) => Promise<number | null>;
  log: Logger;
};

/** The upload proper, once this process holds the folder's lock. */
async function uploadLocked(io: CliIo, args: Args, root: string, c: LockedContext): Promise<number> {
  const { port, dataDir, deps2, warn, fail } = c;
  const lang = terminalLanguage(io.env);
  const w = uploadWords(lang);
  const jobs = findFolderJobs(dataDir, root);
  let job: UploadJob | null = null;
  let leftOut: IncompleteFile[] = [];
  try {
    if (jobs.unfinished) {
      const first = readFirstRecord(jobs.unfinished);
      const busy = first?.t === 'planned' && first.study_uids ? await c.lock(first.study_uids.map(studyKey)) : null;
      if (busy !== null) return busy;
      const open = UploadJob.open(jobs.unfinished, deps2);
      if (open.phase === 'failed' || open.phase === 'cancelled') job = null;
      else job = open;
      if (job) c.log.info('upload resumed', { exam_id: job.examId });
    }
    if (args.cancel) {
      if (!job) {
        warn(w.nothingToCancel(escapeForTerminal(root)));
        return 0;
      }
      const examId = job.examId;
      await job.cancel();
      c.log.info('upload cancelled', { exam_id: examId });
      warn(w.cancelledUpload(escapeForTerminal(root), examId));
      return 0;
    }
    if (job) {
      if (
        args.name !== undefined ||
        args.type !== undefined ||
        args.patientName !== undefined ||
        args.patientId !== undefined ||
        io.argv.includes('--mode') ||
        io.argv.includes('--compress')
      ) {
        warn(w.resumedAsStarted);
      }
    } else {
      const planned = await planFolder(io, root, args, warn);
      if (typeof planned === 'number') return planned;
      leftOut = planned.leftOut;
      const busy = await c.lock((planned.plan.studyUids ?? []).map(studyKey));
      if (busy !== null) return busy;
      const plan = planned.plan;
      // Same files, same name, type, patient and mode: a rerun after a finished upload (maybe one
      // killed just before it printed its result) reports that exam instead of making another.
      const settings = settingsHash(plan.fields, plan.mode);
      const previous = jobs.finished.find(
        (f) => f.outcome === 'ready' && f.fingerprint === plan.fingerprint && f.settings === settings && f.exam_id,
      );
      if (previous?.exam_id && (await alreadyUploaded(port, previous.exam_id, io.signal))) {
        c.log.info('study already uploaded', { exam_id: previous.exam_id });
        return await reportPrevious(io, args, c, { ...previous, exam_id: previous.exam_id });
      }
      logPlanned(c.log, plan);
      job = UploadJob.create(plan, deps2, undefined, args.shareTo);
      warn(
        w.uploading(
          plan.files.length,
          formatBytes(plan.bytes, lang),
          escapeForTerminal(root),
          plan.mode,
          plan.compress === true,
        ),
      );
    }
  } catch (err) {
    return startFailed(io, c, err);
  }

  let running = job;
  const runStart = Date.now();
  const printer = progressPrinter(io, process.stderr.isTTY === true, lang);
  let result: UploadResult;
  try {
    ({ job: running, result } = await runThroughFullDisk(io, c, running, printer.onEvent, lang));
  } catch (err) {
    printer.done();
    if (!(err instanceof UploadError)) {
      c.log.error('upload failed', { exam_id: running.examId, code: errorCode(err) });
      throw err;
    }
    logRunFailed(c.log, running.examId, err.code, runStart);
    if (err.code === 'interrupted') {
      io.stderr(`scanbridge upload: ${w.interrupted(running.examId)}\n`);
      return 130;
    }
    return fail(uploadFailureText(err, lang));
  }
  printer.done();
  logReady(c.log, result, runStart);
  if (leftOut.length > 0) {
    warn(`${w.leftOut(result.exam_id, leftOut.length)}\n${describeIncomplete(leftOut, escapeForTerminal)}`);
  }
  // The intent journaled with the upload wins; a rerun of an upload started without one may add it.
  const shared = await shareAfterUpload(io, c.client, dataDir, result.exam_id, running.shareIntent ?? args.shareTo);
  const line = {
    exam_id: result.exam_id,
    status: result.status,
    files: result.files,
    bytes: result.bytes,
    mode: result.mode,
    resumed: result.resumed,
    bytes_sent: result.bytes_sent,
    ...(shared.line ? { shared: shared.line } : {}),
  };
  io.stdout(
    `${terminalSafeJson(leftOut.length > 0 ? { ...line, left_out: leftOut.map((f) => ({ name: f.name, reason: f.reason })) } : line)}\n`,
  );
  return shared.failed ? 1 : 0;
}

/** How often an upload held up by a full disk is opened again from its journal. */
const DISK_RETRY_MS = 5_000;

/**
 * Runs the job to its end. A full disk (its journal, its archive) does not end it: the folder and
 * the room to make are said once, and the job is opened again from its journal every DISK_RETRY_MS
 * until it can write, as `watch`, `receive` and the app do. Ctrl+C still stops it (resumable).
 */
async function runThroughFullDisk(
  io: CliIo,
  c: LockedContext,
  first: UploadJob,
  onEvent: Parameters<UploadJob['on']>[0],
  lang: Language,
): Promise<{ job: UploadJob; result: UploadResult }> {
  let job = first;
  job.on(onEvent);
  const onAbort = (): void => void job.stop();
  io.signal.addEventListener('abort', onAbort, { once: true });
  let said = false;
  try {
    for (;;) {
      try {
        return { job, result: await job.run() };
      } catch (err) {
        const full = diskFullIn(err);
        if (!full || io.signal.aborted) throw err;
        if (!said) {
          c.warn(`${diskFullWords(full.folder, full.needed, lang)} ${uploadWords(lang).waitingForRoom}`);
          c.log.warn('upload waits for room on a full disk', { exam_id: job.examId, bytes: full.needed });
          said = true;
        }
      }
      await sleep(DISK_RETRY_MS, io.signal, () => new UploadError('interrupted', 'The upload was interrupted.', true));
      try {
        const next = UploadJob.open(job.journalPath, c.deps2);
        next.on(onEvent);
        job = next;
      } catch (err) {
        if (!diskFullIn(err)) throw err;
      }
    }
  } finally {
    io.signal.removeEventListener('abort', onAbort);
  }
}

/** An upload that could not start: its words, or the error again when it is not a known failure. */
function startFailed(io: CliIo, c: LockedContext, err: unknown): number {
  // The data folder's disk may be full before anything is journaled (the lock, the journal's first line).
  const e = asDiskFull(err, c.dataDir);
  if (!(e instanceof UploadError || e instanceof DiskFullError)) throw err;
  c.log.warn('upload could not start', { code: e instanceof UploadError ? e.code : 'disk_full' });
  return c.fail(uploadFailureText(e, terminalLanguage(io.env)));
}

/** The log's lines of an upload: ids, a hash of the study's UID, counts and codes (core/log). */
function logPlanned(log: Logger, plan: JobPlan): void {
  const first = plan.studyUids?.[0];
  log.info('upload planned', {
    study: first !== undefined ? studyHash(first) : undefined,
    count: plan.studyUids?.length ?? 0,
    files: plan.files.length,
    bytes: plan.bytes,
    phase: plan.mode,
    flag: plan.compress,
  });
}

function logRunFailed(log: Logger, examId: string | null, code: string, startedAt: number): void {
  log.warn(code === 'interrupted' ? 'upload interrupted' : 'upload failed', {
    exam_id: examId,
    code,
    ms: Date.now() - startedAt,
  });
}

function logReady(log: Logger, result: UploadResult, startedAt: number): void {
  log.info('upload ready', {
    exam_id: result.exam_id,
    files: result.files,
    bytes: result.bytes,
    phase: result.mode,
    flag: result.resumed,
    ms: Date.now() - startedAt,
  });
}

/** The same files went up before as a ready exam: say so (and send its e-mail if still owed). */
async function reportPrevious(
  io: CliIo,
  args: Args,
  c: LockedContext,
  previous: SummaryRecord & { exam_id: string },
): Promise<number> {
  c.warn(uploadWords(terminalLanguage(io.env)).alreadyUploaded(previous.exam_id));
  const shared = await shareAfterUpload(io, c.client, c.dataDir, previous.exam_id, previous.share ?? args.shareTo);
  const line = { exam_id: previous.exam_id, status: 'ready', files: previous.files, bytes: previous.bytes };
  io.stdout(
    `${JSON.stringify({ ...line, mode: previous.mode, resumed: false, ...(shared.line ? { shared: shared.line } : {}) })}\n`,
  );
  return shared.failed ? 1 : 0;
}

type Planned = { plan: JobPlan; leftOut: IncompleteFile[] };

async function planFolder(io: CliIo, root: string, args: Args, warn: (t: string) => void): Promise<Planned | number> {
  const w = uploadWords(terminalLanguage(io.env));
  let scan: ScanResult;
  // The deflate workers start while the folder is read, should the study be compressed.
  if (worthSampling(args.mode, args.compress, readLinkRates(appDataDir(io.env)), args.limitRate ?? null))
    sharedDeflatePool();
  try {
    scan = await scanFolder(root, { signal: io.signal });
  } catch (err) {
    if (err instanceof ScanFolderError) {
      io.stderr(`scanbridge upload: ${escapeForTerminal(err.message)}\n`);
      return 1;
    }
    throw err;
  } finally {
    await stopScanWorkers();
  }
  // Every file of the study must read whole before an exam exists (a CBCT with a slice missing is
  // a broken volume); the user may send the rest anyway, knowingly.
  const incomplete = incompleteFiles(scan);
  if (incomplete.length > 0) {
    if (!args.allowIncomplete) {
      io.stderr(
        `scanbridge upload: ${w.cannotReadWhole(incomplete.length, escapeForTerminal(root))}\n${describeIncomplete(incomplete, escapeForTerminal)}\n${w.waitForExport}\n`,
      );
      return 1;
    }
    scan = withoutIncomplete(scan, incomplete);
  }
  const files = filesOf(root, scan);
  const notDicom = scan.skipped.filter((s) => s.reason === 'not_dicom').length;
  if (files.length === 0) {
    io.stderr(`scanbridge upload: ${w.noFiles(escapeForTerminal(root), scan.skipped.length)}\n`);
    return 1;
  }
  if (notDicom > 0) warn(w.skipping(notDicom));
  const fields = prefill(scan, args, warn, w);
  const planned = await planUpload({
    root,
    fields,
    files,
    mode: args.mode,
    compress: args.compress,
    studyUids: scan.studies.map((s) => s.study_uid),
  });
  // Compress or not, and the mode, from what this computer measured of its link and CPU.
  const { plan, choice } = await chooseTransport(planned, {
    setting: args.compress,
    dataDir: appDataDir(io.env),
    bandwidthLimit: args.limitRate ?? null,
    concurrency: args.concurrency ?? 6,
    workers: deflateWorkerCount(),
  });
  if (args.mode === 'auto' || args.compress !== 'never')
    warn(w.mode(plan.mode, plan.compress === true, choice.reason, choice.why));
  return { plan, leftOut: incomplete };
}

async function alreadyUploaded(port: ExamsPort, examId: string, signal: AbortSignal): Promise<boolean> {
  try {
    const exam = await port.getExam(examId, { signal });
    return exam !== null && exam.status === 'ready';
  } catch {
    // The service is unreachable: uploading again would fail the same way; let the upload say so.
    return false;
  }
}
