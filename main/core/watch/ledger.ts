// The durable record of uploaded studies: one JSON line per upload, appended and fsynced, so a
// restart (even after a crash) never uploads a study a second time. Keyed by Study Instance UID
// and file-set fingerprint; no patient data is stored.
//
// A study whose UID is in the ledger with a different file set (more slices arrived after the
// upload, or a different export of the same study) is reported as `changed`: the watcher does
// not upload it again on its own but offers it for review as "already uploaded, files differ".
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { studyFingerprint } from '../dicom';
import type { Study } from '../dicom';

/** What identifies an upload in the ledger. */
export type LedgerKey = { study_uid: string; fingerprint: string };

export type LedgerStatus =
  | { kind: 'new' }
  | { kind: 'uploaded'; exam_id: string }
  | { kind: 'changed'; exam_id: string; previous_fingerprint: string };

const entrySchema = z.object({
  v: z.literal(1),
  study_uid: z.string().min(1),
  fingerprint: z.string().min(1),
  exam_id: z.string().min(1),
  files: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** `uploaded` by this agent, or `elsewhere`: another agent's done marker on the share. */
  source: z.enum(['uploaded', 'elsewhere']),
  at: z.string(),
});
export type LedgerEntry = z.infer<typeof entrySchema>;

/** The ledger key of a study (its UID and the fingerprint of its files). */
export function ledgerKey(study: Study | LedgerKey): LedgerKey {
  return 'fingerprint' in study
    ? { study_uid: study.study_uid, fingerprint: study.fingerprint }
    : { study_uid: study.study_uid, fingerprint: studyFingerprint(study) };
}

/** An append-only JSONL ledger; several processes may share the file (each re-reads what the others appended). */
export class Ledger {
  private readonly byUid = new Map<string, LedgerEntry[]>();
  private offset = 0;
  /** The file ends in a line without its newline (a crash mid-append): the next append starts a new line. */
  private tornTail = false;
  private pending: Promise<unknown> = Promise.resolve();

  private constructor(readonly file: string) {}

  /** Opens (creating its folder if needed) and loads the ledger at `file`. */
  static async open(file: string): Promise<Ledger> {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 }); // private: see core/private-fs.ts
    const ledger = new Ledger(file);
    await ledger.refresh();
    return ledger;
  }

  /** Whether the study (same UID and same files) is already uploaded. */
  async has(study: Study | LedgerKey): Promise<boolean> {
    return (await this.status(study)).kind === 'uploaded';
  }

  /** New, uploaded, or uploaded before with a different file set. */
  async status(study: Study | LedgerKey): Promise<LedgerStatus> {
    await this.refresh();
    const key = ledgerKey(study);
    const entries = this.byUid.get(key.study_uid);
    if (!entries || entries.length === 0) return { kind: 'new' };
    const same = entries.findLast((e) => e.fingerprint === key.fingerprint);
    if (same) return { kind: 'uploaded', exam_id: same.exam_id };
    const last = entries[entries.length - 1] as LedgerEntry;
    return { kind: 'changed', exam_id: last.exam_id, previous_fingerprint: last.fingerprint };
  }

  /** Every entry, oldest first. */
  async entries(): Promise<LedgerEntry[]> {
    await this.refresh();
    return [...this.byUid.values()].flat().sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  }

  /** Records that the study was uploaded as `examId`; durable (fsynced) when the promise resolves. */
  async record(
    study: Study | (LedgerKey & { files?: number; bytes?: number }),
    examId: string,
    source: LedgerEntry['source'] = 'uploaded',
  ): Promise<void> {
    const key = ledgerKey(study);
    const entry: LedgerEntry = {
      v: 1,
      study_uid: key.study_uid,
      fingerprint: key.fingerprint,
      exam_id: examId,
      files: 'files' in study && typeof study.files === 'number' ? study.files : 0,
      bytes: 'bytes' in study && typeof study.bytes === 'number' ? study.bytes : 0,
      source,
      at: new Date().toISOString(),
    };
    entrySchema.parse(entry);
    await this.exclusive(async () => {
      await this.readNew();
      const line = `${this.tornTail ? '\n' : ''}${JSON.stringify(entry)}\n`;
      const handle = await open(this.file, 'a', 0o600);
      try {
        await handle.write(line);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await this.readNew();
    });
  }

  private refresh(): Promise<void> {
    return this.exclusive(() => this.readNew());
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.pending.then(fn, fn);
    this.pending = run.catch(() => undefined);
    return run;
  }

  /** Reads the lines appended since the last read (by this or another process). */
  private async readNew(): Promise<void> {
    let handle;
    try {
      handle = await open(this.file, 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    try {
      const size = (await handle.stat()).size;
      if (size < this.offset) {
        // Replaced by a shorter file (restored from a backup): start over.
        this.byUid.clear();
        this.offset = 0;
      }
      if (size === this.offset) return;
      const buf = Buffer.alloc(size - this.offset);
      const { bytesRead } = await handle.read(buf, 0, buf.length, this.offset);
      const text = buf.subarray(0, bytesRead).toString('utf8');
      const end = text.lastIndexOf('\n');
      if (end < 0) {
        this.tornTail = text.length > 0;
        return;
      }
      this.offset += Buffer.byteLength(text.slice(0, end + 1), 'utf8');
      this.tornTail = end + 1 < text.length;
      for (const line of text.slice(0, end).split('\n')) this.add(line);
    } finally {
      await handle.close();
    }
  }

  private add(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return; // A line torn by a crash: its upload was not recorded, the study reads as new or changed.
    }
    const parsed = entrySchema.safeParse(value);
    if (!parsed.success) return;
    const list = this.byUid.get(parsed.data.study_uid) ?? [];
    list.push(parsed.data);
    this.byUid.set(parsed.data.study_uid, list);
  }
}
