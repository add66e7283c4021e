import type { TicketCategory } from '../../../../preload/contract';

/** The categories of API-v1.md §2.12, in the order a receptionist is most likely to need them. */
export const CATEGORIES: readonly TicketCategory[] = [
  'general',
  'bug',
  'viewer',
  'account',
  'billing',
  'feature_request',
];
