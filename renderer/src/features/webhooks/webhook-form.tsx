import { Checkbox, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { CreatedWebhookView, WebhookEventName } from '../../../../preload/contract';
import { useCheckedForm } from '../../components/checked-form';
import { ErrorAlert } from '../../components/error-alert';
import { eventKey, EVENTS, urlProblem } from './event-types';
import { useCreateWebhook, useRefreshWebhooks } from './webhook-queries';
import { FormButtons } from '../../components/form-buttons';

/** What the window checks before asking the service; each message is a key under `webhooks.`. */
const webhookSchema = z.object({
  url: z.string().superRefine((value, ctx) => {
    const problem = urlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `urlProblem.${problem}` });
  }),
  events: z.array(z.string()).min(1, 'eventsRequired'),
});

/** A new subscription: the receiving address, the events and a description. */
export function WebhookForm({
  onCreated,
  onCancel,
}: {
  onCreated: (w: CreatedWebhookView) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const form = useCheckedForm(
    webhookSchema,
    { url: '', description: '', events: ['exam.confirmed'] as string[] },
    (code) => `webhooks.${code}`,
    { recheckAfterSubmit: true },
  );
  // The address as sent: after a lost answer, the list is searched for it (not for what is typed since).
  const [sentUrl, setSentUrl] = useState('');
  const refresh = useRefreshWebhooks();
  const create = useCreateWebhook(onCreated);
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="webhook-form-title">
      <form
        noValidate
        onSubmit={form.onSubmit(({ url, events, description }) => {
          setSentUrl(url.trim());
          create.mutate({
            url: url.trim(),
            events: events as WebhookEventName[],
            ...(description.trim() ? { description: description.trim() } : {}),
          });
        })}
      >
        <Stack gap="sm">
          <Title order={3} size="h4" id="webhook-form-title">
            {t('webhooks.newTitle')}
          </Title>
          <TextInput
            label={t('webhooks.url')}
            description={t('webhooks.urlHelp')}
            placeholder="https://"
            {...form.getInputProps('url')}
            required
            data-testid="webhook-url"
          />
          <TextInput
            label={t('webhooks.description')}
            {...form.getInputProps('description')}
            maxLength={500}
            data-testid="webhook-description"
          />
          <Checkbox.Group
            label={t('webhooks.eventsLabel')}
            description={t('webhooks.eventsHelp')}
            {...form.getInputProps('events')}
            data-testid="webhook-events"
          >
            <SimpleGrid cols={3} spacing={6} mt={6}>
              {EVENTS.map((e) => (
                <Checkbox key={e} value={e} label={t(eventKey(e))} data-event={e} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <ErrorAlert
            error={create.error}
            check={{ action: 'webhook_create', url: sentUrl }}
            onFound={(f) => {
              if (f.action === 'webhook_create' && f.matches > 0) refresh();
            }}
          />
          <FormButtons
            submit={t('webhooks.create')}
            loading={create.isPending}
            onCancel={onCancel}
            testId="webhook-create"
          />
        </Stack>
      </form>
    </Paper>
  );
}
