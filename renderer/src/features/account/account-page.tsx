import { Button, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAccount, useKeysStatus, useRate } from '../../app/queries';
import { AccountSummary } from '../../components/account-summary';
import { ErrorAlert } from '../../components/error-alert';
import { formatBytes, formatNumber, percent } from '../../components/format';
import { RateGauge } from '../../components/rate-gauge';
import { useLanguage } from '../../components/use-language';
import { Loading } from '../../components/loading';

function Meter({ label, value, text, testId }: { label: string; value: number; text: string; testId: string }) {
  const color = value >= 95 ? 'red' : value >= 80 ? 'orange' : 'blue';
  return (
    <Stack gap={6} data-testid={testId}>
      <Group justify="space-between">
        <Text fw={600}>{label}</Text>
        <Text size="sm">{text}</Text>
      </Group>
      <Progress value={value} color={color} size="lg" aria-label={label} />
    </Stack>
  );
}

/** The account of the key in use: plan, storage, exam count and the request allowance. */
export function AccountPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const status = useKeysStatus().data;
  const account = useAccount(status?.active != null);
  const rate = useRate(account.data?.rate);
  const a = account.data;
  return (
    <Stack gap="lg" maw={900}>
      <Group justify="space-between">
        <Title order={2}>{t('account.title')}</Title>
        <Button variant="default" onClick={() => void account.refetch()} loading={account.isFetching}>
          {t('common.refresh')}
        </Button>
      </Group>
      {account.isPending && status?.active != null && <Loading />}
      {account.error && <ErrorAlert error={account.error} />}
      {a && (
        <>
          <Paper withBorder p="lg">
            <AccountSummary account={a} />
          </Paper>
          <Paper withBorder p="lg">
            <Stack gap="lg">
              <Meter
                testId="storage-meter"
                label={t('account.storage')}
                value={Math.min(100, Math.max(0, a.storage.used_percent))}
                text={t('account.storageText', {
                  used: formatBytes(a.storage.used_bytes, lang),
                  limit: formatBytes(a.storage.limit_bytes, lang),
                  percent: formatNumber(Math.round(a.storage.used_percent * 10) / 10, lang),
                })}
              />
              <Meter
                testId="exams-meter"
                label={t('account.exams')}
                value={percent(a.exams.count, a.exams.limit)}
                text={t('account.examsText', {
                  count: a.exams.count,
                  countText: formatNumber(a.exams.count, lang),
                  limit: formatNumber(a.exams.limit, lang),
                })}
              />
              <RateGauge rate={rate} />
            </Stack>
          </Paper>
        </>
      )}
      {status?.active == null && <Text>{t('account.noActiveKey')}</Text>}
    </Stack>
  );
}
