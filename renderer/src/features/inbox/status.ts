import type { TFunction } from 'i18next';
import type { InboxItem, Language } from '../../../../preload/contract';
import { formatBytes, formatDate } from '../../components/format';

export function statusColor(status: InboxItem['status']): string {
  return status === 'review' ? 'orange' : status === 'queued' ? 'blue' : 'teal';
}

/** The study in one line: date, modality, file count and size, the known ones joined by " · ". */
export function studyFacts(item: InboxItem, t: TFunction, lang: Language): string {
  return [
    formatDate(item.study_date, lang),
    item.modality,
    t('inbox.filesCount', { count: item.files }),
    formatBytes(item.bytes, lang),
  ]
    .filter(Boolean)
    .join(' · ');
}
