// The logger every part of ScanBridge writes through. Its interface is what keeps patient data and
// secrets out of the log: a message is a constant written in the source (a string built at run time
// does not type-check), and everything else is a named field of a known kind — ids, codes, numbers,
// a hash of a StudyInstanceUID — each checked again when the line is written, so that a value of
// the wrong shape (a path, a name, an error's message) is replaced by "[invalid]" instead of written.
import { createHash } from 'node:crypto';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * A log message: a string literal. `log.info('upload ready')` compiles; `log.info(\`job ${id}\`)`
 * and `log.info(text)` do not (their types are patterns or `string`, which a record of their keys
 * shows: `{}` fits a record keyed by any infinite set of strings): variable parts go in the fields.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}` is the test itself
export type LogMessage<M extends string> = {} extends Record<M, 1> ? never : M;

declare const studyHashBrand: unique symbol;
/** A StudyInstanceUID hashed (`studyHash`): the same study always gives the same value. */
export type StudyHash = string & { readonly [studyHashBrand]: true };

/** A StudyInstanceUID as the log may carry it: the first 16 hex digits of its SHA-256. */
export function studyHash(studyUid: string): StudyHash {
  return createHash('sha256').update(studyUid, 'utf8').digest('hex').slice(0, 16) as StudyHash;
}

/** The fields a line may carry, by kind. Nothing here holds free text. */
export type LogFields = {
  /** Ids this app or the service made (exm_…, a job's id, a watch folder's id, an inbox item's id). */
  exam_id?: string | null | undefined;
  job?: string | null | undefined;
  folder?: string | null | undefined;
  inbox?: string | null | undefined;
  study?: StudyHash | undefined;
  /** Codes: an error's code or name, a failure's kind, a step, a contract method, a task, a phase. */
  code?: string | null | undefined;
  kind?: string | null | undefined;
  step?: string | null | undefined;
  method?: string | null | undefined;
  task?: string | null | undefined;
  phase?: string | null | undefined;
  /** A DICOM application entity title and a network peer's IP address (the DICOM listener). */
  aet?: string | null | undefined;
  peer?: string | null | undefined;
  /** Numbers: an HTTP status, durations, sizes, counts, a port, an exit code. */
  status?: number | undefined;
  ms?: number | undefined;
  bytes?: number | undefined;
  files?: number | undefined;
  count?: number | undefined;
  port?: number | undefined;
  exit?: number | undefined;
  /** Yes/no facts (a key kept for this session only, an upload compressed…). */
  flag?: boolean | undefined;
};

export type LogMethod = <M extends string>(msg: LogMessage<M>, fields?: LogFields) => void;

export type Logger = { debug?: LogMethod; info: LogMethod; warn: LogMethod; error: LogMethod };

const ID = /^[A-Za-z0-9_-]{1,80}$/;
const CODE = /^[A-Za-z0-9_.:/-]{1,80}$/;
const HASH = /^[0-9a-f]{16}$/;
const PEER = /^[0-9A-Fa-f:.[\]]{1,64}$/;
// AE titles: up to 16 characters of the DICOM default repertoire, no backslash or control characters.
const AET = /^[\x20-\x5b\x5d-\x7e]{1,16}$/;
const MESSAGE = /^[A-Za-z0-9 _.,:;'()/-]{1,160}$/;

const CHECKS: Record<keyof LogFields, (v: unknown) => boolean> = {
  exam_id: (v) => typeof v === 'string' && ID.test(v),
  job: (v) => typeof v === 'string' && ID.test(v),
  folder: (v) => typeof v === 'string' && ID.test(v),
  inbox: (v) => typeof v === 'string' && ID.test(v),
  study: (v) => typeof v === 'string' && HASH.test(v),
  code: (v) => typeof v === 'string' && CODE.test(v),
  kind: (v) => typeof v === 'string' && CODE.test(v),
  step: (v) => typeof v === 'string' && CODE.test(v),
  method: (v) => typeof v === 'string' && CODE.test(v),
  task: (v) => typeof v === 'string' && CODE.test(v),
  phase: (v) => typeof v === 'string' && CODE.test(v),
  aet: (v) => typeof v === 'string' && AET.test(v),
  peer: (v) => typeof v === 'string' && PEER.test(v),
  status: Number.isFinite,
  ms: Number.isFinite,
  bytes: Number.isFinite,
  files: Number.isFinite,
  count: Number.isFinite,
  port: Number.isFinite,
  exit: Number.isFinite,
  flag: (v) => typeof v === 'boolean',
};

/** Marks a value that did not have its field's shape (it is not written). */
export const INVALID = '[invalid]';

/** `fields` as written: unknown keys dropped, empty ones left out, values of the wrong shape replaced. */
export function cleanFields(fields: LogFields | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  if (!fields) return out;
  for (const [key, value] of Object.entries(fields) as [keyof LogFields, unknown][]) {
    if (value === undefined || value === null) continue;
    const check = CHECKS[key];
    if (!check) continue;
    out[key] = check(value) ? (value as string | number | boolean) : INVALID;
  }
  return out;
}

/** The message as written: a constant, but checked anyway (a cast could smuggle anything in). */
export function cleanMessage(msg: string): string {
  return MESSAGE.test(msg) ? msg : INVALID;
}

/** An error as the log may name it: its code (ENOENT, http_error…) or else its class, never its message. */
export function errorCode(e: unknown): string {
  if (e && typeof e === 'object') {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CODE.test(code)) return code;
    const name = (e as { name?: unknown }).name;
    if (typeof name === 'string' && CODE.test(name)) return name;
  }
  return 'error';
}

/** A logger that writes nothing (tests, the demo without --verbose). */
export const silentLogger: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** Writes `debug`, which a Logger may lack (loggers the tests hand in). */
export function logDebug<M extends string>(log: Logger, msg: LogMessage<M>, fields?: LogFields): void {
  log.debug?.(msg, fields);
}
