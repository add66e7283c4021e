// Share-on-ready: a ready exam is e-mailed (API v1 §4.2 share) to the addresses its upload was
// given, exactly once per exam. The intent lives in the upload's journal (upload/share-intents.ts);
// this outbox keeps, per exam, what happened to it, in `<data>/shares/<exam_id>.json` (written
// atomically and fsynced before and after the call):
//
//   sending   written BEFORE POST /share, with the exam's share counter at that moment;
//   sent      the service said it sent the e-mail (or the counter shows it did, see below);
//   not_sent  the service answered without sending (a sandbox key: "test_mode_no_send");
//   failed    the service refused it for good (a bad address, the exam gone): not tried again.
//
// The share call is not idempotent, so a lost answer (or a crash after the request left) must not
// send it again blindly. A record still `sending` is settled by one look at the exam: its share
// counter above the one recorded before the call means the e-mail went out; otherwise it did not
// reach the service and is sent now. (A share someone else makes by hand in that same window would
// be taken for ours: the rare cost of not sending twice.) An exam with a record other than
// `sending` is never e-mailed again by this module, however often its study is uploaded.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { ApiClient } from '../api';
import { isApiError } from '../api/http';
import { writeJsonAtomic } from '../atomic-file';
import { SHARE_LOCALES, type ShareLocale } from '../../../preload/contract/vocabulary';

export type ShareOrder = { exam_id: string; to: string[]; locale: ShareLocale | null };

const recordSchema = z.object({
  v: z.literal(1),
  exam_id: z.string().min(1),
  to: z.array(z.string()),
  locale: z.enum(SHARE_LOCALES).nullable(),
  state: z.enum(['sending', 'sent', 'not_sent', 'failed']),
  /** The exam's share counter just before the call (null: the service shows none). */
  shares_before: z.number().int().nullable(),
  started_at: z.string(),
  done_at: z.string().nullable(),
  /** Why it was not sent (the service's reason or error code). */
  reason: z.string().nullable(),
});
export type ShareRecord = z.infer<typeof recordSchema>;

/** What the outbox needs of the service: the exam (status, share counter) and the share call. */
export type SharePort = { exams: Pick<ApiClient['exams'], 'get' | 'share'> };

/** Codes after which sending again would fail the same way. */
const FINAL_CODES = ['validation_error', 'not_found', 'insufficient_scope', 'plan_required', 'forbidden'] as const;

const safeId = (examId: string): string => examId.replace(/[^A-Za-z0-9_-]/g, '_');

export class ShareOutbox {
  /** One delivery per exam at a time in this process. */
  private readonly running = new Map<string, Promise<ShareRecord | null>>();

  constructor(private readonly dataDir: string) {}

  private path(examId: string): string {
    return join(this.dataDir, 'shares', `${safeId(examId)}.json`);
  }

  /** What happened to the exam's share-on-ready, or null when it has none. */
  async status(examId: string): Promise<ShareRecord | null> {
    let text: string;
    try {
      text = await readFile(this.path(examId), 'utf8');
    } catch {
      return null;
    }
    try {
      const parsed = recordSchema.safeParse(JSON.parse(text));
      return parsed.success && parsed.data.exam_id === examId ? parsed.data : null;
    } catch {
      return null;
    }
  }

  private async save(rec: ShareRecord): Promise<ShareRecord> {
    await writeJsonAtomic(this.path(rec.exam_id), rec, { durable: true });
    return rec;
  }

  /**
   * E-mails the exam once. Returns the record as it ends (null: the exam is not ready yet). Throws
   * when the service cannot be reached or the outcome stays unknown; the record then stays
   * `sending` and the next call settles it.
   */
  deliver(port: SharePort, order: ShareOrder): Promise<ShareRecord | null> {
    const busy = this.running.get(order.exam_id);
    if (busy) return busy;
    const run = this.deliverNow(port, order).finally(() => this.running.delete(order.exam_id));
    this.running.set(order.exam_id, run);
    return run;
  }

  private async deliverNow(port: SharePort, order: ShareOrder): Promise<ShareRecord | null> {
    const old = await this.status(order.exam_id);
    if (old && old.state !== 'sending') return old;
    const exam = await port.exams.get(order.exam_id);
    const shares = exam.counters?.shares ?? null;
    // A call that may have gone out: the counter says whether it did.
    if (old && old.shares_before !== null && shares !== null && shares > old.shares_before)
      return this.save({ ...old, state: 'sent', done_at: new Date().toISOString(), reason: null });
    if (exam.status && exam.status !== 'ready') return null;
    const rec = old
      ? { ...old, shares_before: shares }
      : {
          v: 1 as const,
          exam_id: order.exam_id,
          to: order.to,
          locale: order.locale,
          state: 'sending' as const,
          shares_before: shares,
          started_at: new Date().toISOString(),
          done_at: null,
          reason: null,
        };
    await this.save(rec);
    try {
      const r = await port.exams.share(order.exam_id, { to: rec.to, ...(rec.locale ? { locale: rec.locale } : {}) });
      // Only an explicit `sent: true` (or an e-mail id) is a sent e-mail; a sandbox answer is not.
      const sent = r.sent === true || (r.sent == null && typeof r.email_id === 'string' && r.reason == null);
      return this.save({
        ...rec,
        state: sent ? 'sent' : 'not_sent',
        done_at: new Date().toISOString(),
        reason: sent ? null : (r.reason ?? 'not_sent'),
      });
    } catch (e) {
      if (isApiError(e, ...FINAL_CODES) && !e.outcomeUnknown)
        return this.save({ ...rec, state: 'failed', done_at: new Date().toISOString(), reason: e.code });
      throw e;
    }
  }
}
