// Copies of studies already uploaded, found again in a watched folder: no second exam is made, and
// the Inbox says so, naming the exam with a link to it, instead of ignoring the copy without a word.
import { Alert, Anchor, CloseButton, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSkippedCopies } from '../../app/queries';
import { useDismissCopy } from './inbox-queries';

export function SkippedCopiesNotice() {
  const { t } = useTranslation();
  const copies = useSkippedCopies().data ?? [];
  const dismiss = useDismissCopy();
  if (copies.length === 0) return null;
  return (
    <Alert color="blue" variant="light" role="status" data-testid="skipped-copies" title={t('copies.title')}>
      <Stack gap={4}>
        {copies.map((c) => (
          <Group
            key={`${c.study_uid}\n${c.export_path}`}
            justify="space-between"
            wrap="nowrap"
            data-testid="skipped-copy"
            data-exam-id={c.exam_id}
          >
            <Text size="sm">
              {t(c.reason === 'uploaded_elsewhere' ? 'copies.elsewhere' : 'copies.already', { path: c.export_path })}{' '}
              <Anchor component={Link} to={`/exams/${encodeURIComponent(c.exam_id)}`} data-testid="copy-exam-link">
                {t('copies.exam', { id: c.exam_id })}
              </Anchor>
              . {t('copies.noSecond')}
            </Text>
            <CloseButton
              aria-label={t('copies.dismiss')}
              onClick={() => dismiss.mutate({ study_uid: c.study_uid, export_path: c.export_path })}
            />
          </Group>
        ))}
      </Stack>
    </Alert>
  );
}
