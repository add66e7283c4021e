import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The exam type as a badge (CBCT, Radiograph…). */
export function ExamTypeBadge({ type }: { type: string | null }) {
  const { t, i18n } = useTranslation();
  if (!type) return null;
  return (
    <Badge variant="light" color="gray" data-testid="exam-type">
      {i18n.exists(`examType.${type}`) ? t(`examType.${type}`) : type}
    </Badge>
  );
}

/** Ready, uploading, or whatever the service says. */
export function ExamStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = status === 'ready' || status === 'uploading';
  return (
    <Badge
      variant="light"
      color={status === 'ready' ? 'teal' : 'yellow'}
      data-testid="exam-status"
      data-status={status}
    >
      {known ? t(`exams.status.${status}`) : t('exams.status.other', { status })}
    </Badge>
  );
}

/** An instant as a date and a time of day without seconds ("Nov 23, 2026, 11:24 PM"). */
export function formatDateTime(iso: string | null, lang: 'es' | 'en'): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(lang === 'es' ? 'es-ES' : 'en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(
    d,
  );
}
