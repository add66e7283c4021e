import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IncompleteFileView } from '../../../../preload/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';

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
      <ConfirmDialog
        opened={confirming}
        title={t('completeness.confirmTitle', { count: files.length })}
        body={t('completeness.confirmText', { count: files.length })}
        cancel={t('completeness.confirmCancel')}
        confirm={t('completeness.confirmUpload', { count: files.length })}
        danger
        loading={pending}
        size="lg"
        onConfirm={() => void onUploadAnyway().finally(() => setConfirming(false))}
        onClose={() => setConfirming(false)}
        testId="incomplete-confirm"
        confirmTestId="incomplete-confirm-upload"
      >
        <FileList files={files} testId="incomplete-confirm-list" />
      </ConfirmDialog>
    </Alert>
  );
}
