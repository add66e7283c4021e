import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ContractError } from '../../../../preload/contract';
import { ErrorAlert } from '../../components/error-alert';

/** The foot of a settings section: Save, "Saved" once the service took it, and the error if not. */
export function SaveRow({
  onSave,
  pending,
  saved,
  error,
  testId,
}: {
  onSave: () => void;
  pending: boolean;
  saved: boolean;
  error: ContractError | null;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Group>
        <Button onClick={onSave} loading={pending} data-testid={testId}>
          {t('common.save')}
        </Button>
        {saved && (
          <Text size="sm" c="teal.9" role="status">
            {t('common.saved')}
          </Text>
        )}
      </Group>
      <ErrorAlert error={error} />
    </>
  );
}
