// The listener's state changes as human lines (for `receive`, `serve` and `watch` on stderr): each
// association that ended and each new problem, once.
import type { ReceiveStatus } from '../../../preload/contract';
import type { ReceiveWords } from './words/receive-words';

export type Seen = { at: string; errors: number };

export function receiveStatusLines(s: ReceiveStatus, seen: Seen, words: ReceiveWords): { lines: string[]; next: Seen } {
  const lines: string[] = [];
  const a = s.last_association;
  if (a && a.at !== seen.at) lines.push(words.association(a.calling_aet, a.address, a.outcome, a.objects));
  const lastSeen = seen.errors;
  const errorsNow = s.errors.length;
  const fresh = errorsNow >= lastSeen ? s.errors.slice(lastSeen) : s.errors.slice(-1);
  for (const e of fresh) lines.push(words.listenerProblem(e.message));
  return { lines, next: { at: a?.at ?? seen.at, errors: errorsNow } };
}
