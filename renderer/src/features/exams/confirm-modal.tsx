import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

type Props = {
  opened: boolean;
  title: string;
  body: string;
  confirm: string;
  danger?: boolean;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  testId: string;
};

/** Asks before an action that cannot be undone; Cancel has the focus first, so Enter never destroys by accident. It opens without animation: nothing half-faded to misread. */
export function ConfirmModal({ opened, title, body, confirm, danger, loading, onConfirm, onClose, testId }: Props) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      centered
      data-testid={testId}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      transitionProps={{ duration: 0 }}
    >
      <Stack>
        <Text size="sm">{body}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus data-testid={`${testId}-cancel`}>
            {t('common.cancel')}
          </Button>
          <Button
            color={danger ? 'red.9' : 'blue'}
            onClick={onConfirm}
            loading={loading}
            data-testid={`${testId}-confirm`}
          >
            {confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
