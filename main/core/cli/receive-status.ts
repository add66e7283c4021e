// The listener's state changes as human lines (for `receive` on stderr): each association that
// ended and each new problem, once, in the terminal's language.
import type { ReceiveStatus } from '../../../preload/contract';
import { t, type Language } from '../i18n';
import { receiveProblemWords } from '../receive/problem-words';

export type Seen = { at: string; errors: number };

/** The new lines of status `s` since `seen`; `folder` is the listener's data folder (named by a full disk). */
export function receiveStatusLines(
  s: ReceiveStatus,
  seen: Seen,
  lang: Language,
  folder: string,
): { lines: string[]; next: Seen } {
  const lines: string[] = [];
  const a = s.last_association;
  if (a && a.at !== seen.at)
    lines.push(
      t(lang, `cli.receive.association_${a.outcome}`, { aet: a.calling_aet, address: a.address, objects: a.objects }),
    );
  const lastSeen = seen.errors;
  const errorsNow = s.errors.length;
  const fresh = errorsNow >= lastSeen ? s.errors.slice(lastSeen) : s.errors.slice(-1);
  for (const e of fresh)
    lines.push(t(lang, 'cli.receive.listenerProblem', { problem: receiveProblemWords(e.problem, lang, folder) }));
  return { lines, next: { at: a?.at ?? seen.at, errors: errorsNow } };
}
