import { EXAM_EVENTS } from '../webhooks/event-types';

// The actions the activity log records that staff may want to filter on (the service may add others;
// those show their code).
export const KNOWN_ACTIONS = [
  ...EXAM_EVENTS,
  'consent.signed',
  'ticket.created',
  'ticket.replied',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.disabled',
  'referrer.created',
  'template.created',
  'notification.read',
  'notifications.all_read',
] as const;

/** The locale key of an action's label (`exam.created` → `activity.actions.exam_created`). */
export const actionKey = (action: string): string => `activity.actions.${action.replace(/\./g, '_')}`;
