// The pieces of a screen that lists what the clinic keeps on the service (referrers, report
// layouts): its header, the sandbox notice, the notice after a change, and the question before a
// delete. Their words come from the screen's own texts (`<texts>.title`, `<texts>.deleteTitle`…).
import { Alert, Button, Group, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ContractError } from '../../../preload/contract';
import { ConfirmDialog } from './confirm-dialog';

type Texts = 'referrers' | 'templates';

/** A notice's text key and the name it names: its words follow the window's language while it is shown. */
export type ChangeNotice = { key: string; name: string; sandbox: boolean };

/** The title, a line on what the list is for, and the button that adds to it. */
export function ListHeader({
  texts,
  addLabel,
  onAdd,
  addTestId,
}: {
  texts: Texts;
  addLabel: string;
  onAdd: () => void;
  addTestId: string;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" align="flex-start">
      <div>
        <Title order={2}>{t(`${texts}.title`)}</Title>
        <Text c="dimmed" size="sm">
          {t(`${texts}.intro`)}
        </Text>
      </div>
      <Button onClick={onAdd} data-testid={addTestId}>
        {addLabel}
      </Button>
    </Group>
  );
}

/** With a sandbox key the service keeps nothing: said once, above the list. */
export function SandboxNotice({ texts }: { texts: Texts }) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" variant="light" title={t(`${texts}.sandboxTitle`)} data-testid={`${texts}-sandbox`}>
      <Text size="sm">{t(`${texts}.sandboxBody`)}</Text>
    </Alert>
  );
}

/** What the last change did: green, or yellow when a sandbox key kept nothing. */
export function ChangeNoticeAlert({
  texts,
  notice,
  onClose,
}: {
  texts: Texts;
  notice: ChangeNotice;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      color={notice.sandbox ? 'yellow' : 'green'}
      variant="light"
      role="status"
      withCloseButton
      closeButtonLabel={t('common.close')}
      onClose={onClose}
      data-testid={`${texts}-notice`}
    >
      <Text size="sm">{t(notice.key, { name: notice.name })}</Text>
    </Alert>
  );
}

/** The notice after a delete. */
export const deletedNotice = (texts: Texts, name: string, sandbox: boolean): ChangeNotice => ({
  sandbox,
  name,
  key: sandbox ? `${texts}.deletedSandbox` : `${texts}.deleted`,
});

type DeleteProps = {
  texts: Texts;
  item: { id: string; name: string };
  /** The delete call; its error stays in the dialog, and is forgotten when the dialog closes. */
  remove: {
    mutate: (args: { id: string }) => void;
    isPending: boolean;
    error: ContractError | null;
    reset: () => void;
  };
  onClose: () => void;
  /** The dialog is `<testId>-modal`, its button `<testId>-confirm`. */
  testId: string;
};

/** Asks before an entry is deleted, naming it. */
export function DeleteDialog({ texts, item, remove, onClose, testId }: DeleteProps) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      opened
      title={t(`${texts}.deleteTitle`)}
      body={t(`${texts}.deleteBody`, { name: item.name })}
      confirm={t(`${texts}.delete`)}
      danger
      loading={remove.isPending}
      error={remove.error}
      onConfirm={() => remove.mutate({ id: item.id })}
      onClose={() => {
        remove.reset();
        onClose();
      }}
      testId={`${testId}-modal`}
      confirmTestId={`${testId}-confirm`}
    />
  );
}
