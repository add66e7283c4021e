// After a lost answer (`maybe_done`): one look at the service to tell the receptionist whether the
// call that lost its answer was carried out, before they try again. Each action names what the
// window sent; the answer says what the service holds now. One read per look, never a loop.
import { z } from 'zod';
import { id, method } from './method';
import { webhookUrl } from './webhooks-methods';

/** The calls that are not safe to repeat and whose effect the service lets us look at. */
export const outcomeActions = [
  'share',
  'rotate_pin',
  'embed_enable',
  'report_upload',
  'report_sign',
  'consent',
  'webhook_create',
  'webhook_test',
  'ticket_create',
] as const;
export type OutcomeAction = (typeof outcomeActions)[number];

const onExam = <A extends OutcomeAction>(action: A) => z.object({ action: z.literal(action), exam_id: id }).strict();

export const outcomeCheckArgs = z.discriminatedUnion('action', [
  onExam('share'),
  onExam('rotate_pin'),
  onExam('embed_enable'),
  onExam('report_upload'),
  onExam('report_sign'),
  // consent start, the signing e-mail and signing in person all show in the consent's status.
  onExam('consent'),
  z.object({ action: z.literal('webhook_create'), url: webhookUrl }).strict(),
  z.object({ action: z.literal('webhook_test'), id }).strict(),
  z.object({ action: z.literal('ticket_create'), subject: z.string().trim().min(1).max(200) }).strict(),
]);
export type OutcomeCheck = z.input<typeof outcomeCheckArgs>;

/** What the service holds now, for the action looked at. */
export type OutcomeFinding =
  /** E-mails sent for the exam so far (its share counter). */
  | { action: 'share'; shares: number }
  /** The PIN in force now. */
  | { action: 'rotate_pin'; pin: string }
  | { action: 'embed_enable'; enabled: boolean }
  | { action: 'report_upload'; present: boolean; filename: string | null; uploaded_at: string | null }
  | { action: 'report_sign'; signed: boolean; signed_at: string | null }
  | {
      action: 'consent';
      status: 'none' | 'pending' | 'signed';
      signing_method: string | null;
      signed_at: string | null;
    }
  /** Subscriptions with exactly that address. */
  | { action: 'webhook_create'; matches: number }
  /** Test deliveries (`test.ping`) in the subscription's log, and when the newest was made. */
  | { action: 'webhook_test'; pings: number; last_at: string | null }
  /** Tickets with exactly that subject, and when the newest was opened. */
  | { action: 'ticket_create'; matches: number; last_at: string | null };

export const outcomeMethods = {
  'outcome:check': method<OutcomeFinding>()(outcomeCheckArgs),
} as const;
