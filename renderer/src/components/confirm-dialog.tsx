import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { MantineSize } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContractError } from '../../../preload/contract';
import { ErrorAlert } from './error-alert';

type Props = {
  opened: boolean;
  title: string;
  /** The question in a sentence; `children` add what it is about (a path, a list of files). */
  body?: string;
  children?: ReactNode;
  /** The action's own words (Delete, Revoke, Upload anyway…), never a bare "OK". */
  confirm: string;
  /** The safe choice's words; "Cancel" unless the question wants others (Keep editing). */
  cancel?: string;
  danger?: boolean;
  loading?: boolean;
  /** A failed answer stays in the dialog, beside the button that asked for it. */
  error?: ContractError | null;
  size?: MantineSize;
  onConfirm: () => void;
  onClose: () => void;
  /** The dialog's test id; its buttons are `<testId>-cancel` and `<testId>-confirm` unless named here. */
  testId: string;
  cancelTestId?: string;
  confirmTestId?: string;
};

/**
 * Every "are you sure?" of the window. The safe choice has the focus first, so Enter never
 * destroys by accident; Escape and the close button cancel. It opens without animation: nothing
 * half-faded to misread.
 */
export function ConfirmDialog(p: Props) {
  const { t } = useTranslation();
  const cancel = p.cancel ?? t('common.cancel');
  return (
    <Modal
      opened={p.opened}
      onClose={p.onClose}
      title={p.title}
      size={p.size}
      centered
      data-testid={p.testId}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      transitionProps={{ duration: 0 }}
    >
      <Stack gap="md">
        {p.body && <Text size="sm">{p.body}</Text>}
        {p.children}
        <ErrorAlert error={p.error} />
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={p.onClose}
            data-autofocus
            data-testid={p.cancelTestId ?? `${p.testId}-cancel`}
          >
            {cancel}
          </Button>
          <Button
            color={p.danger ? 'red.9' : 'blue'}
            onClick={p.onConfirm}
            loading={p.loading}
            data-testid={p.confirmTestId ?? `${p.testId}-confirm`}
          >
            {p.confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
