import { Alert, Badge, Button, Group, Paper, Stack, Switch, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WebhookView } from '../../../../preload/contract';
import { ErrorAlert } from '../../components/error-alert';
import { DeliveriesTable } from './deliveries-table';
import { eventKey } from './event-types';
import { usePingWebhook, useRemoveWebhook, useUpdateWebhook } from './webhook-queries';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { RowAction } from '../../components/row-action';

/** What the subscription is: its description, the URL it posts to and the start of its secret. */
function WebhookIdentity({ hook }: { hook: WebhookView }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2} style={{ minWidth: 0 }}>
      <Text fw={700}>{hook.description || t('webhooks.noDescription')}</Text>
      <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }} data-testid="webhook-shown-url">
        {hook.url}
      </Text>
      {hook.secret_prefix && (
        <Text size="xs" c="dimmed">
          {t('webhooks.secretPrefix', { prefix: hook.secret_prefix })}
        </Text>
      )}
    </Stack>
  );
}

type DeleteProps = { opened: boolean; url: string; onClose: () => void; onConfirm: () => void; loading: boolean };

function DeleteWebhookModal({ opened, url, onClose, onConfirm, loading }: DeleteProps) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      opened={opened}
      title={t('webhooks.deleteTitle')}
      body={t('webhooks.deleteBody', { url })}
      confirm={t('webhooks.deleteConfirm')}
      danger
      loading={loading}
      onConfirm={onConfirm}
      onClose={onClose}
      testId="webhook-delete-modal"
      confirmTestId="webhook-delete-confirm"
    />
  );
}

/** One subscription: its state, enable/disable, test ping, deliveries and delete (with confirmation). */
export function WebhookCard({ hook }: { hook: WebhookView }) {
  const { t } = useTranslation();
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [pinged, setPinged] = useState<boolean | null>(null);
  const update = useUpdateWebhook();
  const test = usePingWebhook(hook.id, (r) => {
    setPinged(r.delivered);
    setShowDeliveries(true);
  });
  const remove = useRemoveWebhook(() => setConfirming(false));
  const autoDisabled = !hook.enabled && !!hook.disabled_reason;
  const label = hook.description || hook.url;
  return (
    <Paper
      withBorder
      p="md"
      data-testid="webhook"
      data-id={hook.id}
      data-enabled={hook.enabled}
      component="article"
      aria-label={label}
    >
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <WebhookIdentity hook={hook} />
          <Switch
            checked={hook.enabled}
            onChange={(e) => update.mutate({ id: hook.id, enabled: e.currentTarget.checked })}
            disabled={update.isPending}
            label={hook.enabled ? t('webhooks.on') : t('webhooks.off')}
            aria-label={t('webhooks.toggleLabel', { name: label })}
            data-testid="webhook-toggle"
          />
        </Group>
        <Group gap={4}>
          {hook.events.map((e) => (
            <Badge key={e} variant="light" size="sm" tt="none">
              {t(eventKey(e), { defaultValue: e })}
            </Badge>
          ))}
        </Group>
        {autoDisabled && (
          <Alert
            color="red"
            variant="light"
            title={t('webhooks.autoDisabledTitle')}
            data-testid="webhook-auto-disabled"
          >
            {t('webhooks.autoDisabledBody')}
          </Alert>
        )}
        {pinged !== null && (
          <Alert
            color={pinged ? 'green' : 'red'}
            variant="light"
            data-testid="webhook-ping-result"
            withCloseButton
            closeButtonLabel={t('common.close')}
            onClose={() => setPinged(null)}
          >
            {pinged ? t('webhooks.pingOk') : t('webhooks.pingFailed')}
          </Alert>
        )}
        <ErrorAlert
          error={update.error ?? test.error ?? remove.error}
          check={!update.error && test.error ? { action: 'webhook_test', id: hook.id } : undefined}
        />
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            onClick={() => test.mutate({ id: hook.id })}
            loading={test.isPending}
            data-testid="webhook-ping"
          >
            {t('webhooks.ping')}
          </Button>
          <Button
            size="xs"
            variant="default"
            onClick={() => setShowDeliveries((v) => !v)}
            aria-expanded={showDeliveries}
            data-testid="webhook-show-deliveries"
          >
            {showDeliveries ? t('webhooks.hideDeliveries') : t('webhooks.showDeliveries')}
          </Button>
          <RowAction label={t('webhooks.delete')} onClick={() => setConfirming(true)} danger testId="webhook-delete" />
        </Group>
        {showDeliveries && <DeliveriesTable id={hook.id} />}
      </Stack>
      <DeleteWebhookModal
        opened={confirming}
        url={hook.url}
        onClose={() => setConfirming(false)}
        onConfirm={() => remove.mutate({ id: hook.id })}
        loading={remove.isPending}
      />
    </Paper>
  );
}
