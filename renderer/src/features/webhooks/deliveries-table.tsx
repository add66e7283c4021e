import { Badge, Button, Group, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/error-alert';
import { formatTime } from '../../components/format';
import { useLanguage } from '../../components/use-language';
import { eventKey } from './event-types';
import { useDeliveries } from './webhook-queries';
import { Loading } from '../../components/loading';

/** The last deliveries of one subscription: when, which event, the result, the answer and the retries. */
export function DeliveriesTable({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const lang = useLanguage();
  const q = useDeliveries(id);
  const rows = q.data?.deliveries ?? [];
  return (
    <div data-testid="webhook-deliveries">
      <Group justify="space-between" mb={6}>
        <Title order={4} size="h6">
          {t('webhooks.deliveries')}
        </Title>
        <Button size="xs" variant="default" onClick={() => void q.refetch()} loading={q.isRefetching}>
          {t('common.refresh')}
        </Button>
      </Group>
      {q.isPending && <Loading size="sm" />}
      <ErrorAlert error={q.error} />
      {q.data && rows.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('webhooks.noDeliveries')}
        </Text>
      )}
      {rows.length > 0 && (
        <Table withTableBorder striped fz="sm" aria-label={t('webhooks.deliveries')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('webhooks.colWhen')}</Table.Th>
              <Table.Th>{t('webhooks.colEvent')}</Table.Th>
              <Table.Th>{t('webhooks.colResult')}</Table.Th>
              <Table.Th>{t('webhooks.colResponse')}</Table.Th>
              <Table.Th>{t('webhooks.colRetries')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((d) => {
              const ok = d.status === 'succeeded';
              return (
                <Table.Tr key={d.id} data-testid="webhook-delivery" data-status={d.status ?? ''}>
                  <Table.Td>{d.created_at ? formatTime(d.created_at, lang) : ''}</Table.Td>
                  <Table.Td>
                    {d.event_type
                      ? i18n.exists(eventKey(d.event_type))
                        ? t(eventKey(d.event_type))
                        : d.event_type
                      : ''}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={ok ? 'teal.9' : 'red.9'} variant="filled" size="sm">
                      {ok ? t('webhooks.delivered') : t('webhooks.failed')}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" ff="monospace" lineClamp={2} style={{ wordBreak: 'break-all' }}>
                      {d.response_status !== null ? `HTTP ${d.response_status}` : ''}
                      {d.error && !ok ? ` ${d.error}` : d.response_body ? ` ${d.response_body}` : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>{d.retry_count ?? (d.attempt !== null ? d.attempt - 1 : '')}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
    </div>
  );
}
