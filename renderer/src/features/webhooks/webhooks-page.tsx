import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CreatedWebhookView } from '../../../../preload/contract';
import { ErrorAlert } from '../../components/error-alert';
import { SecretOnce } from './secret-once';
import { WebhookCard } from './webhook-card';
import { WebhookForm } from './webhook-form';
import { useRefreshWebhooks, useWebhooks } from './webhook-queries';
import { Loading } from '../../components/loading';

/** Integrations: the addresses the service notifies when exams and reports change (webhooks). */
export function WebhooksPage() {
  const { t } = useTranslation();
  const [adding, setAdding] = useState(false);
  // Held only in this component's state: gone once dismissed or when the page is left.
  const [secret, setSecret] = useState<string | null>(null);
  const list = useWebhooks();
  const refresh = useRefreshWebhooks();
  const created = (w: CreatedWebhookView) => {
    setAdding(false);
    setSecret(w.secret);
    refresh();
  };
  const hooks = list.data?.webhooks ?? [];
  return (
    <Stack gap="md" maw={1000}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={2}>{t('webhooks.title')}</Title>
          <Text size="sm" c="dimmed" maw={700}>
            {t('webhooks.intro')}
          </Text>
        </Stack>
        {!adding && (
          <Button onClick={() => setAdding(true)} data-testid="webhook-new">
            {t('webhooks.new')}
          </Button>
        )}
      </Group>
      {secret && <SecretOnce secret={secret} onDone={() => setSecret(null)} />}
      {adding && <WebhookForm onCreated={created} onCancel={() => setAdding(false)} />}
      <ErrorAlert error={list.error} />
      {list.isPending && <Loading />}
      {list.data && hooks.length === 0 && !adding && (
        <Text c="dimmed" data-testid="webhooks-empty">
          {t('webhooks.empty')}
        </Text>
      )}
      {hooks.map((h) => (
        <WebhookCard key={h.id} hook={h} />
      ))}
    </Stack>
  );
}
