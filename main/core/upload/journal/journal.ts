// The job journal: one append-only JSON-lines file per job. Every record is written before the
// step it describes goes on (so kill -9 at any instant loses nothing), and the records that guard
// against a second exam are fsynced before the service hears of it (so a power cut does not either).
// A torn last line (a crash mid-write) is cut off when the journal is reopened.
//
// Each line carries a checksum of its record (`"k"`, the first 8 hex digits of its SHA-256), so a
// line damaged anywhere (a disk or a copy gone wrong, a file edited, emptied or garbled) is told
// apart from a good one: JSON that still parses is not taken for a record. Such a journal is
// reported as damaged (`readJournalChecked`), and the job that owns it checks with the service
// before it creates anything (exam-steps.ts, `recover`). Lines without a checksum (journals of
// older versions) are read as before.
import {
  closeSync,
  fstatSync,
  fsync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { asDiskFull } from '../../disk-full';
import { fsyncDir, writeFileAtomic, writeFileAtomicSync } from '../../atomic-file';
import { dirname } from 'node:path';
import { z } from 'zod';
import { EXAM_TYPES, SHARE_LOCALES } from '../../../../preload/contract/vocabulary';
import { PRIVATE_FILE_MODE } from '../../private-fs';

const examType = z.enum(EXAM_TYPES);
const mode = z.enum(['files', 'zip']);

/**
 * Whom to e-mail the exam once it is ready (share-on-ready, handover/share-on-ready.ts). Kept in the
 * plan and in the summary, so the intent outlives a crash and the compaction of the journal.
 */
export const shareIntentSchema = z.object({
  to: z.array(z.string().min(3).max(320)).min(1).max(10),
  locale: z.enum(SHARE_LOCALES).nullable(),
});
export type ShareIntent = z.infer<typeof shareIntentSchema>;

const plannedFile = z.object({
  name: z.string(),
  path: z.string(),
  size: z.number(),
  mtimeMs: z.number(),
  ino: z.number(),
});

export const recordSchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('planned'),
    v: z.literal(1),
    job_id: z.string(),
    at: z.number(),
    root: z.string(),
    fields: z.object({
      name: z.string(),
      exam_type: examType.optional(),
      patient_name: z.string().optional(),
      patient_id: z.string().optional(),
      birth_date: z.string().optional(),
      reason: z.string().optional(),
    }),
    requested_mode: z.enum(['files', 'zip', 'auto']),
    mode,
    files: z.array(plannedFile),
    bytes: z.number(),
    zip_size: z.number(),
    fingerprint: z.string(),
    /** Study Instance UIDs of the files (the upload lock's keys); absent in journals of older versions. */
    study_uids: z.array(z.string()).optional(),
    /**
     * Set when this job replaces journals of the same folder found damaged (their jobs' earliest
     * start, this computer's clock): before creating anything, the job looks on the service for an
     * exam those jobs made (exam-steps.ts, `recover`).
     */
    recover_since: z.number().optional(),
    /** Absent: the job creates an exam. Set: it adds an extra take to an existing exam (target.ts). */
    target: z.object({ kind: z.literal('extra'), exam_id: z.string().min(1), label: z.string().min(1) }).optional(),
    share: shareIntentSchema.optional(),
    /** Zip mode with deflated entries, written to a private archive and sent as it is written (archive.ts). */
    compress: z.boolean().optional(),
    /** The compressibility sample the choice was made on (compression-choice.ts), reused for the budget. */
    sample: z
      .object({
        ratio: z.number().positive(),
        spread: z.number().nonnegative(),
        strong: z.number().min(0).max(1).optional(),
      })
      .optional(),
  }),
  // The compressed archive is on disk up to `offset` with its first `n` entries; `e` are the
  // entries this record adds ([CRC-32, deflated size]); n = 0 starts the archive over.
  z.object({
    t: z.literal('packed'),
    n: z.number().int().nonnegative(),
    offset: z.number().int().nonnegative(),
    e: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])),
  }),
  // Streamed compression: the size the exam is declared with, journaled before it is created; the
  // archive, written while it is sent, is padded up to it (deflated-zip.ts, ArchiveBudget).
  z.object({ t: z.literal('budget'), size: z.number().int().positive() }),
  // The compressed archive is complete: its exact size (declared to the service) and sha256.
  z.object({ t: z.literal('compressed'), size: z.number().int().positive(), sha256: z.string() }),
  // Written (and fsynced) before POST /exams is sent: its presence without `created` means an exam
  // may exist on the service that this job does not know yet.
  z.object({ t: z.literal('creating'), marker: z.string(), at: z.number() }),
  z.object({
    t: z.literal('created'),
    exam_id: z.string(),
    created_at: z.string(),
    expires_at: z.number(),
    /**
     * This computer's clock when the answer arrived. The links' lifetime is the service's own
     * (expires_at less created_at, both its clock); counted from here, a local clock that is off
     * does not make them look expired. Absent in journals of older versions.
     */
    got_at: z.number().optional(),
    urls: z.array(z.string()).optional(),
    zip_url: z.string().optional(),
  }),
  z.object({ t: z.literal('done'), i: z.array(z.number().int().nonnegative()) }),
  z.object({ t: z.literal('undone'), i: z.array(z.number().int().nonnegative()) }),
  z.object({ t: z.literal('uploaded') }),
  // An exam this job made and then removed (URLs expired, orphan of a crashed create, cancel).
  z.object({ t: z.literal('discarded'), exam_id: z.string(), reason: z.string() }),
  z.object({ t: z.literal('ready'), exam_id: z.string(), at: z.number() }),
  z.object({ t: z.literal('failed'), code: z.string(), message: z.string(), at: z.number() }),
  z.object({ t: z.literal('cancelled'), at: z.number() }),
  // The service was checked after the journal was found damaged (or replaced a damaged one): the
  // damage before this line is accounted for.
  z.object({ t: z.literal('recovered'), at: z.number(), exam_id: z.string().nullable() }),
  // What a finished journal is compacted to: no file list, no patient data.
  z.object({
    t: z.literal('summary'),
    job_id: z.string(),
    root: z.string(),
    fingerprint: z.string(),
    outcome: z.enum(['ready', 'failed', 'cancelled']),
    exam_id: z.string().nullable(),
    files: z.number(),
    bytes: z.number(),
    mode,
    /** settingsHash of the fields and mode the exam was created with. */
    settings: z.string().optional(),
    code: z.string().optional(),
    at: z.number(),
    share: shareIntentSchema.optional(),
  }),
]);

export type JournalRecord = z.infer<typeof recordSchema>;

/** How soon an appended record must survive a power cut (see Journal.append). */
export type Durability = 'sync' | 'background' | 'none';
export type PlannedRecord = Extract<JournalRecord, { t: 'planned' }>;
export type SummaryRecord = Extract<JournalRecord, { t: 'summary' }>;

/** How a journal was found damaged: the lines that could not be read (1-based), out of how many. */
export type JournalDamage = { lines: number[]; total: number; empty: boolean };

/** A record's line: its JSON with the checksum of that JSON as a last member. */
export function recordLine(record: JournalRecord): string {
  const json = JSON.stringify(record);
  return `${json.slice(0, -1)},"k":"${checksumOf(json)}"}\n`;
}

function checksumOf(json: string): string {
  return createHash('sha256').update(json, 'utf8').digest('hex').slice(0, 8);
}

const CHECKSUM_TAIL = /,"k":"([0-9a-f]{8})"\}$/;

/** One line as a record, or null when it is damaged (not JSON, not a record, or its checksum differs). */
export function parseLine(line: string, requireChecksum = false): JournalRecord | null {
  let json = line;
  const tail = CHECKSUM_TAIL.exec(line);
  if (!tail && requireChecksum) return null;
  if (tail) {
    json = `${line.slice(0, tail.index)}}`;
    if (checksumOf(json) !== tail[1]) return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const parsed = recordSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * Every readable record, and the damage found: lines that cannot be read, wherever they are, and an
 * empty journal (every journal starts with its plan). A last line without its newline is a write a
 * crash cut short, not damage: it is left out without a word.
 */
export function readJournalChecked(path: string): {
  records: JournalRecord[];
  /** The line (1-based) of each record. */
  lines: number[];
  damage: JournalDamage | null;
} {
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  // The part after the last newline: a torn write (or nothing).
  lines.pop();
  // Once a journal has checksums, a line without one is damaged too (only older versions wrote none).
  const checked = lines.some((l) => CHECKSUM_TAIL.test(l));
  const records: JournalRecord[] = [];
  const at: number[] = [];
  const bad: number[] = [];
  lines.forEach((line, i) => {
    const r = line === '' ? null : parseLine(line, checked);
    if (r) {
      records.push(r);
      at.push(i + 1);
    } else bad.push(i + 1);
  });
  const empty = records.length === 0;
  return {
    records,
    lines: at,
    damage: bad.length > 0 || empty ? { lines: bad, total: lines.length, empty } : null,
  };
}

/** Reads every valid record; damaged lines are skipped (readJournalChecked says which). */
export function readJournal(path: string): JournalRecord[] {
  return readJournalChecked(path).records;
}

/** The first line of a journal, without parsing the rest (job lookup reads many journals). */
export function readFirstRecord(path: string): JournalRecord | null {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const parts: Buffer[] = [];
    let pos = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) break;
      pos += n;
      const nl = buf.subarray(0, n).indexOf(0x0a);
      parts.push(Buffer.from(buf.subarray(0, nl >= 0 ? nl : n)));
      if (nl >= 0) break;
    }
    return parseLine(Buffer.concat(parts).toString('utf8'));
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** An open journal, appended to by one job. */
export class Journal {
  private pendingDone: number[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private backgroundSyncs = 0;
  private closeWhenSynced = false;
  private dirSynced = true;
  /** A write that failed where nobody could be told (the batched completions' timer): thrown by the next append. */
  private deferredError: unknown = null;

  private constructor(
    readonly path: string,
    private fd: number,
    private readonly doneFlushMs: number,
  ) {}

  /**
   * Creates a new journal whose first record is the plan. It is made durable with the first
   * `sync` append (the `creating` record, before anything reaches the service).
   */
  static create(path: string, planned: PlannedRecord, opts: { doneFlushMs?: number } = {}): Journal {
    // Private from the start: an unfinished journal holds the patient's name, ID and birth date.
    const fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
    const j = new Journal(path, fd, opts.doneFlushMs ?? 250);
    try {
      j.append(planned, 'none');
    } catch (err) {
      // No journal rather than an empty one (which would pass for a damaged journal).
      closeSync(fd);
      rmSync(path, { force: true });
      throw err;
    }
    j.dirSynced = false;
    return j;
  }

  /** Reopens a journal for appending, cutting off a torn last line first. */
  static open(
    path: string,
    opts: { doneFlushMs?: number } = {},
  ): { journal: Journal; records: JournalRecord[]; lines: number[]; damage: JournalDamage | null } {
    const text = readFileSync(path);
    const end = text.lastIndexOf(0x0a) + 1;
    const fd = openSync(path, 'r+');
    if (end !== text.length) {
      ftruncateSync(fd, end);
      fsyncSync(fd);
    }
    closeSync(fd);
    const { records, lines, damage } = readJournalChecked(path);
    return { journal: new Journal(path, openSync(path, 'a'), opts.doneFlushMs ?? 250), records, lines, damage };
  }

  /**
   * Appends a record (pending file completions go first). `sync` returns once it is on disk;
   * `background` starts the fsync without waiting; `none` leaves it to the next fsync. Records
   * are always written in order; only how soon they survive a power cut differs (a killed process
   * loses nothing it wrote).
   */
  append(record: JournalRecord, durability: Durability = 'sync'): void {
    if (this.deferredError) {
      const err = this.deferredError;
      this.deferredError = null;
      throw err;
    }
    this.flushDone('none');
    this.write(recordLine(record));
    this.sync(durability);
  }

  /**
   * Notes that file `i` is stored. Completions are batched (written at most every `doneFlushMs`
   * and fsynced in the background): after a crash, only files completed in the last moments are
   * sent again. The write itself is synchronous, so records stay in order.
   */
  markDone(i: number): void {
    this.pendingDone.push(i);
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = null;
      try {
        this.flushDone('background');
      } catch (err) {
        // A full disk: the completions stay pending, and the job hears of it at its next record.
        this.deferredError ??= err;
      }
    }, this.doneFlushMs);
  }

  /**
   * Writes pending completions now; `sync` fsyncs before returning, `background` lets the fsync
   * run on the thread pool (a blocking fsync can stall the event loop, and with it every transfer,
   * while the disk flushes other writes), `none` leaves it to the next step boundary.
   */
  flushDone(durability: Durability = 'sync'): void {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    if (this.pendingDone.length === 0 || this.fd < 0) return;
    const i = this.pendingDone;
    this.write(recordLine({ t: 'done', i }));
    this.pendingDone = [];
    this.sync(durability);
  }

  private sync(durability: Durability): void {
    if (durability === 'sync') {
      fsyncSync(this.fd);
      if (!this.dirSynced) {
        fsyncDir(dirname(this.path));
        this.dirSynced = true;
      }
    } else if (durability === 'background' && this.backgroundSyncs === 0) {
      // One at a time: a later background or sync fsync covers whatever this one missed.
      this.backgroundSyncs++;
      const fd = this.fd;
      fsync(fd, () => {
        this.backgroundSyncs--;
        if (this.closeWhenSynced && this.backgroundSyncs === 0) closeSync(fd);
      });
    }
  }

  close(): void {
    if (this.fd < 0) return;
    this.flushDone('sync');
    // A background fsync still holds the descriptor: it closes it when done.
    if (this.backgroundSyncs > 0) this.closeWhenSynced = true;
    else closeSync(this.fd);
    this.fd = -1;
  }

  /** Replaces the whole journal by one summary line (atomically: temp file, fsync, rename). */
  compact(summary: SummaryRecord): void {
    this.close();
    try {
      writeFileAtomicSync(this.path, recordLine(summary), { durable: true });
    } catch (err) {
      // The full journal stays as it is (it replays to the same end); compacting is tried again at its next opening.
      throw asDiskFull(err, dirname(this.path));
    }
  }

  /**
   * The same without blocking: the caller need not wait (a process exits only once it is done,
   * and a journal left uncompacted by a crash is compacted when it is next opened).
   */
  async compactInBackground(summary: SummaryRecord): Promise<void> {
    this.close();
    await writeFileAtomic(this.path, recordLine(summary), { durable: true });
  }

  /**
   * Appends whole lines only: a write cut short (a full disk) is taken back, so the journal never
   * holds half a record followed by more records. The failure is a DiskFullError naming the folder.
   */
  private write(text: string): void {
    if (this.fd < 0) throw new Error('journal is closed');
    const before = fstatSync(this.fd).size;
    try {
      writeAll(this.fd, text);
    } catch (err) {
      try {
        ftruncateSync(this.fd, before);
      } catch {
        // The torn line is cut off when the journal is next opened.
      }
      throw asDiskFull(err, dirname(this.path), Buffer.byteLength(text));
    }
  }
}

function writeAll(fd: number, text: string): void {
  const buf = Buffer.from(text, 'utf8');
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}

/** fsync of a folder makes a created or renamed entry durable; not supported on Windows (ignored). */
export { fsyncDir } from '../../atomic-file';
