import type { InboxItem } from '../../../../preload/contract';

export function statusColor(status: InboxItem['status']): string {
  return status === 'review' ? 'orange' : status === 'queued' ? 'blue' : 'teal';
}
