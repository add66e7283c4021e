import type { WebhookEventName } from '../../../../preload/contract';

/**
 * The event types of API-v1.md §6.1 a subscription can choose, in the order the form shows them.
 * The renderer takes only types from the contract, so the list is written here; the check below
 * fails the type-check when the contract gains an event this list lacks.
 */
/** What happens to an exam and its report: the service both notifies these and records them in the activity log. */
export const EXAM_EVENTS = [
  'exam.created',
  'exam.confirmed',
  'exam.updated',
  'exam.shared',
  'exam.deleted',
  'exam.extra_added',
  'report.published',
  'report.signed',
] as const satisfies readonly WebhookEventName[];

export const EVENTS = [...EXAM_EVENTS, 'test.ping'] as const satisfies readonly WebhookEventName[];
type Unlisted = Exclude<WebhookEventName, (typeof EVENTS)[number]>;
export const EVERY_EVENT_LISTED: [Unlisted] extends [never] ? true : Unlisted = true;

export const eventKey = (e: string): string => `webhooks.events.${e.replace(/\./g, '_')}`;

/** What the window accepts before asking the service: https://, or http:// to this computer for a local test receiver. */
export function urlProblem(value: string): 'required' | 'invalid' | 'https' | null {
  const v = value.trim();
  if (!v) return 'required';
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return 'invalid';
  }
  if (u.username || u.password) return 'invalid';
  if (u.protocol === 'https:') return null;
  if (u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)) return null;
  return 'https';
}
