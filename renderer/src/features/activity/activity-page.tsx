import { Alert, Button, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/error-alert';
import { formatTime } from '../../components/format';
import { useLanguage } from '../../components/use-language';
import { actionKey, KNOWN_ACTIONS } from './actions';
import { useActivityLog } from './activity-queries';
import { Loading } from '../../components/loading';

/** The account's activity log: newest first, filtered by action, more on demand. */
export function ActivityPage() {
  const { t, i18n } = useTranslation();
  const lang = useLanguage();
  const [action, setAction] = useState<string | null>(null);
  const label = (a: string): string => (i18n.exists(actionKey(a)) ? t(actionKey(a)) : a);
  const log = useActivityLog(action);
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  const sandbox = log.data?.pages[0]?.sandbox ?? false;
  return (
    <Stack gap="md" maw={1000}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={2}>{t('activity.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('activity.intro')}
          </Text>
        </Stack>
        <Group align="flex-end">
          <Select
            label={t('activity.filter')}
            placeholder={t('activity.allActions')}
            data={KNOWN_ACTIONS.map((a) => ({ value: a, label: label(a) }))}
            value={action}
            onChange={setAction}
            clearable
            w={280}
            data-testid="activity-filter"
            comboboxProps={{ withinPortal: true }}
          />
          <Button variant="default" onClick={() => void log.refetch()} loading={log.isRefetching}>
            {t('common.refresh')}
          </Button>
        </Group>
      </Group>
      {sandbox && (
        <Alert color="yellow" variant="light" data-testid="activity-sandbox">
          {t('activity.sandbox')}
        </Alert>
      )}
      <ErrorAlert error={log.error} />
      {log.isPending && <Loading />}
      {log.data && entries.length === 0 && (
        <Text c="dimmed" data-testid="activity-empty">
          {action ? t('activity.emptyFiltered') : t('activity.empty')}
        </Text>
      )}
      {entries.length > 0 && (
        <Table striped withTableBorder data-testid="activity-table" aria-label={t('activity.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={180}>{t('activity.when')}</Table.Th>
              <Table.Th>{t('activity.what')}</Table.Th>
              <Table.Th>{t('activity.about')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((e, i) => (
              <Table.Tr key={e.id ?? `${e.created_at}-${i}`} data-testid="activity-entry" data-action={e.action}>
                <Table.Td>{e.created_at ? formatTime(e.created_at, lang) : ''}</Table.Td>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {label(e.action)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {e.action}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {e.resource_id ?? ''}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {log.hasNextPage && (
        <Button
          variant="default"
          onClick={() => void log.fetchNextPage()}
          loading={log.isFetchingNextPage}
          data-testid="activity-more"
          style={{ alignSelf: 'center' }}
        >
          {t('activity.more')}
        </Button>
      )}
    </Stack>
  );
}
