import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ReceivedFromView } from '../../../../preload/contract';

/** Where a study a scanner sent came from (its AE title and address). */
export function ReceivedFrom({ from }: { from: ReceivedFromView }) {
  const { t } = useTranslation();
  return (
    <Text size="xs" c="dimmed" data-testid="inbox-received-from">
      <bdi>{t('receive.from', { aet: from.calling_aet, address: from.address })}</bdi>
    </Text>
  );
}

/** A received study whose sender stopped mid-way: staff decide (resend from the scanner, or upload what arrived). */
export function SenderStopped({ from }: { from: ReceivedFromView | undefined }) {
  const { t } = useTranslation();
  if (!from?.sender_stopped) return null;
  return (
    <Alert color="orange" variant="light" title={t('receive.senderStoppedTitle')} data-testid="inbox-sender-stopped">
      {t('receive.senderStopped')}
    </Alert>
  );
}
