// Planning a job: stat every file once, check the service limits, pick the mode. Nothing is
// created on the service until a plan passes these checks.
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { formatBytes } from '../../format-bytes';
import { chooseMode } from './auto-mode';
import { UploadError } from '../ports/upload-errors';
import { MAX_FILE_NAME_LENGTH, MAX_FILES_PER_EXAM, MAX_NAME_LENGTH, MAX_ZIP_BYTES } from './limits';
import type { ExamFields, UploadMode } from '../ports/ports';
import { zipSizeOf } from '../transfer/zip';

/** A file to upload: where it is on disk and its name in the exam (relative, `/`-separated). */
export type PlanFileInput = { path: string; name: string };

/** A file as planned: its identity at planning time, re-checked before it is sent. */
export type PlannedFile = { name: string; path: string; size: number; mtimeMs: number; ino: number };

export type RequestedMode = UploadMode | 'auto';

export type JobPlan = {
  /** The folder the job uploads (absolute); a rerun on the same folder finds the job. */
  root: string;
  fields: ExamFields;
  requestedMode: RequestedMode;
  mode: UploadMode;
  files: PlannedFile[];
  bytes: number;
  /** Exact size of the uncompressed ZIP of all files (computed in every mode, used in zip mode). */
  zipSize: number;
  /** Identity of the file set: names, sizes and modification times. */
  fingerprint: string;
  /** Study Instance UIDs of the files, when known: the upload lock's keys (study-lock.ts). */
  studyUids?: string[];
  /** Zip mode with deflated entries (compression-choice.ts decides it). */
  compress?: boolean;
  /**
   * The compressibility sample the decision was made on, with the codecs the archive is written
   * with while sent: the exam's declared size is estimated from it (archive.ts), not sampled twice.
   * `strong`: the share of whole files deflated with the strong codec (deflate-pool.ts), the rest
   * with the plain one; absent (a job planned before there were two, or libdeflate could not load
   * in the workers), every file goes through zlib level 6.
   */
  sample?: { ratio: number; spread: number; strong?: number };
};

export type PlanInput = {
  root: string;
  fields: ExamFields;
  files: readonly PlanFileInput[];
  mode: RequestedMode;
  studyUids?: readonly string[];
  /**
   * Compression that chooseTransport will decide next (compression-choice.ts): unless `never`, a
   * ZIP over the service's limit is not refused here, as it may fit once compressed.
   */
  compress?: 'auto' | 'always' | 'never';
};

/** Stats the files, validates everything the service would refuse, and chooses the mode. */
export async function planUpload(input: PlanInput): Promise<JobPlan> {
  validateFields(input.fields);
  if (input.files.length === 0) throw new UploadError('no_files', 'There are no files to upload.');
  if (input.files.length > MAX_FILES_PER_EXAM) {
    throw new UploadError(
      'too_many_files',
      `An exam can hold at most ${MAX_FILES_PER_EXAM} files; this one has ${input.files.length}. Split the folder into several uploads.`,
    );
  }
  validateFileNames(input.files);
  const files = await statAll(input.files);
  const bytes = files.reduce((sum, f) => sum + f.size, 0);
  const zipSize = await zipSizeOf(files);
  let mode: UploadMode;
  if (input.mode === 'auto') mode = chooseMode(files, zipSize);
  else mode = input.mode;
  const mayCompress = input.compress !== undefined && input.compress !== 'never';
  if (mode === 'zip' && zipSize > MAX_ZIP_BYTES && !mayCompress) {
    throw new UploadError(
      'zip_too_large',
      `The ZIP would be ${formatBytes(zipSize)}, over the service's limit of 1 GB. Use files mode instead.`,
    );
  }
  const plan: JobPlan = {
    root: input.root,
    fields: { ...input.fields },
    requestedMode: input.mode,
    mode,
    files,
    bytes,
    zipSize,
    fingerprint: fingerprintOf(files),
  };
  if (input.studyUids && input.studyUids.length > 0) plan.studyUids = [...new Set(input.studyUids)].sort();
  return plan;
}

/** Checks the exam fields the service validates (name). */
export function validateFields(fields: ExamFields): void {
  if (fields.name.trim() === '') throw new UploadError('name_required', 'The exam needs a name.');
  if (fields.name.length > MAX_NAME_LENGTH) {
    throw new UploadError(
      'name_too_long',
      `The exam name has ${fields.name.length} characters; the service accepts at most ${MAX_NAME_LENGTH}.`,
    );
  }
}

function validateFileNames(files: readonly PlanFileInput[]): void {
  const seen = new Set<string>();
  for (const f of files) {
    const n = f.name;
    const bad =
      n === '' ||
      n.length > MAX_FILE_NAME_LENGTH ||
      n.startsWith('/') ||
      n.includes('\\') ||
      n.includes('\0') ||
      n.split('/').some((s) => s === '..' || s === '.' || s === '');
    if (bad) throw new UploadError('invalid_file_name', `"${n}" cannot be used as a file name in an exam.`);
    if (seen.has(n)) throw new UploadError('duplicate_file_name', `"${n}" appears twice in the upload.`);
    seen.add(n);
  }
}

async function statAll(inputs: readonly PlanFileInput[]): Promise<PlannedFile[]> {
  const out: PlannedFile[] = new Array<PlannedFile>(inputs.length);
  let next = 0;
  // A few stats in flight at once: fast on local disks and network shares, bounded file handles.
  const worker = async (): Promise<void> => {
    for (let i = next++; i < inputs.length; i = next++) {
      const f = inputs[i];
      if (!f) continue;
      out[i] = await statPlanned(f);
    }
  };
  await Promise.all(Array.from({ length: Math.min(16, inputs.length) }, worker));
  return out;
}

async function statPlanned(f: PlanFileInput): Promise<PlannedFile> {
  try {
    const s = await stat(f.path);
    if (!s.isFile()) throw new UploadError('file_unreadable', `"${f.name}" is not a regular file.`);
    return { name: f.name, path: f.path, size: s.size, mtimeMs: s.mtimeMs, ino: s.ino };
  } catch (err) {
    if (err instanceof UploadError) throw err;
    throw new UploadError(
      'file_unreadable',
      `"${f.name}" cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}).`,
      false,
      { cause: err },
    );
  }
}

/** sha256 over the sorted names, sizes and modification times: equal only for the same files. */
export function fingerprintOf(files: readonly PlannedFile[]): string {
  const lines = files.map((f) => `${f.name}\0${f.size}\0${Math.round(f.mtimeMs)}\n`).sort();
  const hash = createHash('sha256');
  for (const l of lines) hash.update(l, 'utf8');
  return hash.digest('hex');
}

/** Identity of what an exam is created with (fields and mode), kept in finished jobs without the values. */
export function settingsHash(fields: ExamFields, mode: UploadMode): string {
  const keys = Object.keys(fields).sort() as (keyof ExamFields)[];
  return createHash('sha256')
    .update(JSON.stringify([mode, keys.map((k) => [k, fields[k] ?? null])]), 'utf8')
    .digest('hex')
    .slice(0, 32);
}
