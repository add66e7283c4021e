import { Alert, Badge, Button, Group, NavLink, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TicketView } from '../../../../preload/contract';
import { ErrorAlert } from '../../components/error-alert';
import { formatTime } from '../../components/format';
import { useLanguage } from '../../components/use-language';
import { TicketDetail } from './ticket-detail';
import { TicketForm } from './ticket-form';
import { useRefreshTickets, useTickets } from './support-queries';
import { Loading } from '../../components/loading';

/** Help and support: the account's requests, a new request, and support's replies. */
export function SupportPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const [view, setView] = useState<{ kind: 'none' } | { kind: 'new' } | { kind: 'ticket'; id: string }>({
    kind: 'none',
  });
  const [testTicket, setTestTicket] = useState<TicketView | null>(null);
  const list = useTickets();
  const refresh = useRefreshTickets();
  const tickets = list.data?.tickets ?? [];
  const created = (ticket: TicketView) => {
    if (ticket.test_mode) {
      setTestTicket(ticket);
      setView({ kind: 'none' });
      return;
    }
    setTestTicket(null);
    refresh();
    setView({ kind: 'ticket', id: ticket.id });
  };
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Stack gap={2}>
          <Title order={2}>{t('support.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('support.intro')}
          </Text>
        </Stack>
        <Button onClick={() => setView({ kind: 'new' })} data-testid="ticket-new">
          {t('support.new')}
        </Button>
      </Group>
      {list.data?.sandbox && (
        <Alert color="yellow" variant="light" data-testid="support-sandbox">
          {t('support.sandbox')}
        </Alert>
      )}
      {testTicket && (
        <Alert
          color="orange"
          variant="light"
          title={t('support.testSentTitle')}
          withCloseButton
          closeButtonLabel={t('common.close')}
          onClose={() => setTestTicket(null)}
          data-testid="ticket-test-mode"
        >
          {t('support.testSentBody', { id: testTicket.id })}
        </Alert>
      )}
      <ErrorAlert error={list.error} />
      <div
        style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 2fr)', gap: 20, alignItems: 'start' }}
      >
        <div>
          <Paper withBorder p="xs" component="nav" aria-label={t('support.listLabel')}>
            {list.isPending && <Loading size="sm" />}
            {list.data && tickets.length === 0 && (
              <Text size="sm" c="dimmed" p="sm" data-testid="tickets-empty">
                {t('support.empty')}
              </Text>
            )}
            {tickets.map((tk) => (
              <NavLink
                key={tk.id}
                component="button"
                onClick={() => setView({ kind: 'ticket', id: tk.id })}
                active={view.kind === 'ticket' && view.id === tk.id}
                aria-current={view.kind === 'ticket' && view.id === tk.id ? 'true' : undefined}
                label={tk.subject}
                description={tk.created_at ? formatTime(tk.created_at, lang) : undefined}
                rightSection={
                  tk.status === 'answered' ? (
                    <Badge size="xs" color="teal.9">
                      {t('support.status.answered')}
                    </Badge>
                  ) : null
                }
                styles={{ description: { color: 'var(--mantine-color-gray-8)' } }}
                data-testid="ticket-row"
                data-id={tk.id}
              />
            ))}
          </Paper>
        </div>
        <div>
          {view.kind === 'new' && (
            <TicketForm onCreated={created} onCancel={() => setView({ kind: 'none' })} onFoundOnService={refresh} />
          )}
          {view.kind === 'ticket' && <TicketDetail key={view.id} id={view.id} />}
          {view.kind === 'none' && (
            <Text c="dimmed" p="md">
              {t('support.pick')}
            </Text>
          )}
        </div>
      </div>
    </Stack>
  );
}
