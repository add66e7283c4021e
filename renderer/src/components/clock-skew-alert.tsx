// "This computer's clock is 2 days ahead of the service's": said where the skew is known (the
// Inbox, from the account; Settings → "Check the connection", from its report) once it is minutes
// or more. Uploads go on regardless (the service's clock decides); the clock is worth setting.
import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** From this far off the clock is said (the core's CLOCK_SKEW_WARN_MS). */
const WARN_MS = 5 * 60_000;

/** "2 days", "3 hours", "25 minutes" in the window's language. */
function span(ms: number, t: (key: string, vars: Record<string, number>) => string): string {
  const minutes = Math.max(1, Math.round(Math.abs(ms) / 60_000));
  if (minutes >= 2 * 1440) return t('clockSkew.days', { count: Math.round(minutes / 1440) });
  if (minutes >= 120) return t('clockSkew.hours', { count: Math.round(minutes / 60) });
  return t('clockSkew.minutes', { count: minutes });
}

/** `skewMs`: this computer's clock less the service's; nothing is shown below a few minutes. */
export function ClockSkewAlert({ skewMs, testId }: { skewMs: number | null | undefined; testId: string }) {
  const { t } = useTranslation();
  if (skewMs === null || skewMs === undefined || Math.abs(skewMs) < WARN_MS) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      role="status"
      title={t('clockSkew.title', {
        span: span(skewMs, t),
        direction: t(skewMs > 0 ? 'clockSkew.ahead' : 'clockSkew.behind'),
      })}
      data-testid={testId}
    >
      <Text size="sm">{t('clockSkew.body')}</Text>
    </Alert>
  );
}
