import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IncompleteFileView } from '../../../../preload/contract';

const SHOWN = 12;

function FileList({ files, testId }: { files: IncompleteFileView[]; testId: string }) {
  const { t } = useTranslation();
  return (
    <List size="sm" spacing={2} data-testid={testId}>
      {files.slice(0, SHOWN).map((f) => (
        <List.Item key={f.name} data-reason={f.reason}>
          <Text span size="sm" ff="monospace">
            <bdi dir="ltr">{f.name}</bdi>
          </Text>
          {' — '}
          {t(`completeness.reason.${f.reason}`)}
        </List.Item>
      ))}
      {files.length > SHOWN && <List.Item>{t('completeness.more', { count: files.length - SHOWN })}</List.Item>}
    </List>
  );
}

/**
 * A study with files that cannot be read whole (a slice cut short, a file without permission): it
 * is not uploaded as it is. Staff either wait (ScanBridge looks again when the files change) or
 * upload the rest after confirming, knowing the exam will lack those files.
 */
export function IncompleteFiles({
  files,
  onUploadAnyway,
  pending,
}: {
  files: IncompleteFileView[];
  onUploadAnyway: () => Promise<void>;
  pending: boolean;
}) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const [waiting, setWaiting] = useState(false);
  return (
    <Alert
      color="red"
      variant="light"
      title={t('completeness.title', { count: files.length })}
      data-testid="incomplete-files"
    >
      <Stack gap="sm">
        <Text size="sm">{t('completeness.explain')}</Text>
        <FileList files={files} testId="incomplete-list" />
        {waiting && (
          <Text size="sm" fw={600} role="status" data-testid="incomplete-waiting">
            {t('completeness.waiting')}
          </Text>
        )}
        <Group>
          {!waiting && (
            <Button variant="default" onClick={() => setWaiting(true)} data-testid="incomplete-wait">
              {t('completeness.wait')}
            </Button>
          )}
          <Button variant="default" onClick={() => setConfirming(true)} data-testid="incomplete-upload-anyway">
            {t('completeness.uploadAnyway', { count: files.length })}
          </Button>
        </Group>
      </Stack>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('completeness.confirmTitle', { count: files.length })}
        size="lg"
        centered
        closeButtonProps={{ 'aria-label': t('completeness.confirmCancel') }}
        data-testid="incomplete-confirm"
      >
        <Stack gap="md">
          <Text size="sm">{t('completeness.confirmText', { count: files.length })}</Text>
          <FileList files={files} testId="incomplete-confirm-list" />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} data-testid="incomplete-confirm-cancel">
              {t('completeness.confirmCancel')}
            </Button>
            <Button
              color="red.9"
              loading={pending}
              onClick={() => {
                void onUploadAnyway().finally(() => setConfirming(false));
              }}
              data-testid="incomplete-confirm-upload"
            >
              {t('completeness.confirmUpload', { count: files.length })}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Alert>
  );
}
