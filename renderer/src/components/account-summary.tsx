import { Alert, Badge, Grid, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AccountView } from '../../../preload/contract';
import { planName } from './plan-name';

/** Scopes the front desk needs: reading the account and creating exams. */
const NEEDED_SCOPES = ['account:read', 'exams:write'];

/** What GET /me said about a key: plan, e-mail, live or sandbox, and its scopes. */
export function AccountSummary({ account }: { account: AccountView }) {
  const { t, i18n } = useTranslation();
  const missing = NEEDED_SCOPES.filter((s) => !account.scopes.includes(s));
  return (
    <Stack gap="sm" data-testid="account-summary">
      <Grid gap="sm">
        <Grid.Col span={3}>
          <Text size="xs" c="dimmed">
            {t('account.plan')}
          </Text>
          <Text fw={700} data-testid="account-plan">
            {planName(account.plan, t, i18n.exists.bind(i18n))}
          </Text>
        </Grid.Col>
        <Grid.Col span={6}>
          <Text size="xs" c="dimmed">
            {t('account.email')}
          </Text>
          <Text fw={500} truncate title={account.email}>
            {account.email}
          </Text>
        </Grid.Col>
        <Grid.Col span={3}>
          <Text size="xs" c="dimmed">
            {t('account.keyKind')}
          </Text>
          {account.sandbox ? (
            <Badge color="yellow.4" c="#1a1200" data-testid="verified-kind">
              {t('keys.sandbox')}
            </Badge>
          ) : (
            <Badge color="teal.9" data-testid="verified-kind">
              {t('keys.live')}
            </Badge>
          )}
        </Grid.Col>
      </Grid>
      <div>
        <Text size="xs" c="dimmed" mb={4}>
          {t('account.scopes')}
        </Text>
        <Group gap={6} data-testid="account-scopes">
          {account.scopes.map((s) => (
            <Badge key={s} variant="outline" color="gray.8" tt="none">
              {s}
            </Badge>
          ))}
        </Group>
      </div>
      {missing.length > 0 && (
        <Alert color="orange" variant="light" title={t('account.missingScopesTitle')}>
          <Text size="sm">{t('account.missingScopesBody', { scopes: missing.join(', ') })}</Text>
        </Alert>
      )}
    </Stack>
  );
}
