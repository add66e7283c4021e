import { Alert, List } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { StudyWarning } from '../../../../preload/contract';

/** What staff should check before uploading, in plain words. */
export function StudyWarnings({ warnings }: { warnings: StudyWarning[] }) {
  const { t, i18n } = useTranslation();
  if (warnings.length === 0) return null;
  return (
    <Alert color="orange" variant="light" title={t('inbox.warningsTitle')} data-testid="study-warnings">
      <List size="sm" spacing={2}>
        {warnings.map((w) => (
          <List.Item key={w} data-warning={w}>
            {i18n.exists(`warnings.${w}`) ? t(`warnings.${w}`) : w}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
