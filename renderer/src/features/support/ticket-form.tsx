import {
  Alert,
  Button,
  Checkbox,
  Code,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { type UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { ContractError, Diagnostics, TicketCategory, TicketView } from '../../../../preload/contract';
import { useCheckedForm } from '../../components/checked-form';
import { ErrorAlert } from '../../components/error-alert';
import { CATEGORIES } from './categories';
import { useCreateTicket, useDiagnostics } from './support-queries';

type Props = {
  onCreated: (ticket: TicketView) => void;
  onCancel: () => void;
  /** After a lost answer, the look found the request on the service: the list should show it. */
  onFoundOnService?: () => void;
};

type DiagnosticsProps = {
  checked: boolean;
  onChange: (checked: boolean) => void;
  diagnostics: UseQueryResult<Diagnostics, ContractError>;
};

/** The opt-in for diagnostics, and the summary itself so it is read before it is sent. */
function DiagnosticsAttachment({ checked, onChange, diagnostics }: DiagnosticsProps) {
  const { t } = useTranslation();
  return (
    <>
      <Checkbox
        label={t('support.attachDiagnostics')}
        description={t('support.attachDiagnosticsHelp')}
        checked={checked}
        onChange={(e) => onChange(e.currentTarget.checked)}
        data-testid="ticket-diagnostics"
      />
      {checked && (
        <Stack gap={4} data-testid="diagnostics-preview">
          <Text size="sm" fw={600}>
            {t('support.diagnosticsReview')}
          </Text>
          <ErrorAlert error={diagnostics.error} />
          {diagnostics.isFetching && (
            <Group gap="xs" data-testid="diagnostics-preparing">
              <Loader size="xs" aria-hidden />
              <Text size="sm">{t('support.diagnosticsPreparing')}</Text>
            </Group>
          )}
          {diagnostics.data && !diagnostics.isFetching && (
            <Code
              block
              tabIndex={0}
              aria-label={t('support.diagnosticsReview')}
              style={{ maxHeight: 180, overflow: 'auto' }}
            >
              {diagnostics.data.text}
            </Code>
          )}
        </Stack>
      )}
    </>
  );
}

type TicketValues = {
  subject: string;
  message: string;
  category: TicketCategory;
  examId: string;
  withDiagnostics: boolean;
};

/** A request needs a subject and a message; the message is a key under `support.`. */
const ticketSchema = z.object({
  subject: z.string().trim().min(1, 'required'),
  message: z.string().trim().min(1, 'required'),
});

/** A new support request; the diagnostics summary is shown in full before it can be attached. */
export function TicketForm({ onCreated, onCancel, onFoundOnService }: Props) {
  const { t } = useTranslation();
  // Checked on Send, and from then on as typed.
  const form = useCheckedForm<TicketValues>(
    ticketSchema,
    { subject: '', message: '', category: 'general', examId: '', withDiagnostics: false },
    (code) => `support.${code}`,
    { recheckAfterSubmit: true },
  );
  const { withDiagnostics } = form.values;
  // The subject as sent: after a lost answer, the list is searched for it (not for what is typed since).
  const [sentSubject, setSentSubject] = useState('');
  const diagnostics = useDiagnostics(withDiagnostics);
  const create = useCreateTicket(onCreated);
  const missing = Object.keys(form.errors).length > 0;
  const submit = ({ subject, message, category, examId }: TicketValues) => {
    // What is sent is what the operator read: wait for the summary before sending.
    if (withDiagnostics && diagnostics.isFetching) return;
    setSentSubject(subject.trim());
    create.mutate({
      subject: subject.trim(),
      message: message.trim(),
      category,
      ...(examId.trim() ? { exam_id: examId.trim() } : {}),
      include_diagnostics: withDiagnostics && diagnostics.isSuccess,
    });
  };
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="ticket-form-title">
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="sm">
          <Title order={3} size="h4" id="ticket-form-title">
            {t('support.newTitle')}
          </Title>
          <TextInput
            label={t('support.subject')}
            {...form.getInputProps('subject')}
            maxLength={200}
            required
            data-testid="ticket-subject"
          />
          <Group grow align="flex-start">
            <Select
              label={t('support.category')}
              data={CATEGORIES.map((c) => ({ value: c, label: t(`support.categories.${c}`) }))}
              {...form.getInputProps('category')}
              allowDeselect={false}
              data-testid="ticket-category"
              comboboxProps={{ withinPortal: true }}
            />
            <TextInput
              label={t('support.examId')}
              description={t('support.examIdHelp')}
              {...form.getInputProps('examId')}
              maxLength={100}
              data-testid="ticket-exam"
            />
          </Group>
          <Textarea
            label={t('support.message')}
            {...form.getInputProps('message')}
            minRows={5}
            autosize
            maxRows={10}
            maxLength={8000}
            required
            data-testid="ticket-message"
          />
          <DiagnosticsAttachment
            checked={withDiagnostics}
            onChange={(checked) => form.setFieldValue('withDiagnostics', checked)}
            diagnostics={diagnostics}
          />
          <ErrorAlert
            error={create.error}
            check={{ action: 'ticket_create', subject: sentSubject }}
            onFound={(f) => {
              if (f.action === 'ticket_create' && f.matches > 0) onFoundOnService?.();
            }}
          />
          {missing && (
            <Alert color="red" variant="light" role="alert">
              {t('support.fillIn')}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              {t('common.cancel')}
            </Button>
            <Button
              type="submit"
              loading={create.isPending || (withDiagnostics && diagnostics.isFetching)}
              data-testid="ticket-send"
            >
              {t('support.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
