// The Inbox says when this computer's clock is minutes or more off the service's (read off the
// service's answers, with the account): uploads go on regardless, but the clock is worth setting.
import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAccount, useKeysStatus } from '../../app/queries';

/** From this far off the clock is said (the core's CLOCK_SKEW_WARN_MS). */
const WARN_MS = 5 * 60_000;

/** "2 days", "3 hours", "25 minutes" in the window's language. */
function span(ms: number, t: (key: string, vars: Record<string, number>) => string): string {
  const minutes = Math.max(1, Math.round(Math.abs(ms) / 60_000));
  if (minutes >= 2 * 1440) return t('inbox.clockSkew.days', { count: Math.round(minutes / 1440) });
  if (minutes >= 120) return t('inbox.clockSkew.hours', { count: Math.round(minutes / 60) });
  return t('inbox.clockSkew.minutes', { count: minutes });
}

export function ClockSkewNotice() {
  const { t } = useTranslation();
  const active = useKeysStatus().data?.active;
  const skew = useAccount(active != null).data?.clock_skew_ms ?? null;
  if (skew === null || Math.abs(skew) < WARN_MS) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      role="status"
      title={t('inbox.clockSkew.title', {
        span: span(skew, t),
        direction: t(skew > 0 ? 'inbox.clockSkew.ahead' : 'inbox.clockSkew.behind'),
      })}
      data-testid="clock-skew"
    >
      <Text size="sm">{t('inbox.clockSkew.body')}</Text>
    </Alert>
  );
}
