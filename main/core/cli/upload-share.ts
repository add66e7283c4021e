// `scanbridge upload --share-to <e-mail>[,<e-mail>]`: the exam is e-mailed once it is ready, exactly
// once per exam (handout/share-on-ready.ts), also across interruptions and reruns: the intent is
// journaled with the upload, and a rerun of a finished upload finds the e-mail already sent.
import { z } from 'zod';
import type { ApiClient } from '../api';
import { ApiError } from '../api/http';
import { ShareOutbox, type ShareRecord } from '../handout/share-on-ready';
import type { ShareIntent } from '../upload/journal';
import { apiErrorText } from './words/error-words';
import { terminalLanguage } from '../net/failure-words';
import type { CliIo } from './session/io';
import { UsageError } from './session/io';

const email = z.email().max(320);

/** `a@x.cl, b@y.cl` → the addresses; a UsageError names the ones that are not addresses. */
export function parseShareTo(value: string): ShareIntent {
  const to = [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  const bad = to.filter((a) => !email.safeParse(a).success);
  if (to.length === 0 || bad.length > 0)
    throw bad.length
      ? UsageError.of('cli.usageError.shareToNot', { bad: bad.join(', ') })
      : UsageError.of('cli.usageError.shareTo');
  if (to.length > 10) throw UsageError.of('cli.usageError.shareToMax');
  return { to, locale: null };
}

/** What the final JSON line says about the e-mail. */
export type SharedLine = { state: ShareRecord['state']; to: string[]; at: string | null; reason: string | null };

/**
 * E-mails the ready exam as its upload asked (once), and says what happened on stderr. Null when
 * there was nothing to send; `failed` true when the e-mail could not be settled now (run again).
 */
export async function shareAfterUpload(
  io: CliIo,
  client: ApiClient,
  dataDir: string,
  examId: string,
  intent: ShareIntent | undefined,
): Promise<{ line: SharedLine | null; failed: boolean }> {
  if (!intent) return { line: null, failed: false };
  const outbox = new ShareOutbox(dataDir);
  let rec: ShareRecord | null;
  try {
    rec = await outbox.deliver(client, { exam_id: examId, to: intent.to, locale: intent.locale });
  } catch (err) {
    const why =
      err instanceof ApiError
        ? apiErrorText(err, terminalLanguage(io.env))
        : err instanceof Error
          ? err.message
          : String(err);
    io.stderr(
      `scanbridge upload: exam ${examId} is ready but the e-mail could not be sent yet (${why}). Run the same command again to send it (it is never sent twice).\n`,
    );
    return { line: null, failed: true };
  }
  if (!rec) return { line: null, failed: false };
  const line = { state: rec.state, to: rec.to, at: rec.done_at, reason: rec.reason };
  const to = rec.to.join(', ');
  if (rec.state === 'sent') io.stderr(`Exam ${examId} shared with ${to} on ${rec.done_at ?? ''}.\n`);
  else if (rec.state === 'not_sent')
    io.stderr(`Not sent: test key. The sandbox key sends no e-mail (${to} would have received the exam).\n`);
  else io.stderr(`The service refused to e-mail exam ${examId} to ${to} (${rec.reason ?? 'refused'}).\n`);
  return { line, failed: rec.state === 'failed' };
}
