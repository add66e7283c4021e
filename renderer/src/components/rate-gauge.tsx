import { Group, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RateState } from '../../../preload/contract';
import { formatNumber, formatTime, percent } from './format';
import { useLanguage } from './use-language';

/** Remaining requests as a colour: calm, then a warning under 20 %, red at 5 %. */
function colorFor(rate: RateState): string {
  if (rate.limit === null || rate.remaining === null) return 'gray';
  const p = percent(rate.remaining, rate.limit);
  if (p <= 5) return 'red';
  if (p <= 20) return 'orange';
  return 'teal';
}

/** The service's request allowance for the key in use; compact for the header, full for the Account page. */
export function RateGauge({ rate, compact = false }: { rate: RateState | undefined; compact?: boolean }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const known = rate && rate.limit !== null && rate.remaining !== null;
  const value = known ? percent(rate.remaining ?? 0, rate.limit ?? 0) : 0;
  const reset = rate?.reset_at ? formatTime(rate.reset_at, lang) : null;
  const summary = known
    ? t('rate.summary', {
        remaining: formatNumber(rate.remaining ?? 0, lang),
        limit: formatNumber(rate.limit ?? 0, lang),
      })
    : t('rate.unknown');
  const exhausted = known && rate.remaining === 0;
  if (compact) {
    return (
      <Tooltip label={reset ? t('rate.resetAt', { time: reset }) : t('rate.title')} withArrow>
        <Stack gap={2} w={190} data-testid="rate-meter" tabIndex={0} aria-label={`${t('rate.title')}: ${summary}`}>
          {/* The count said as what it is (calls left this hour), not "961/1000", which reads as calls used. */}
          <Text size="xs" c={exhausted ? 'red.9' : undefined} fw={exhausted ? 700 : 400} lh={1.1}>
            {known
              ? t('rate.compact', {
                  remaining: formatNumber(rate.remaining ?? 0, lang),
                  limit: formatNumber(rate.limit ?? 0, lang),
                })
              : `${t('rate.short')}: —`}
          </Text>
          <Progress
            value={value}
            color={colorFor(rate ?? { limit: null, remaining: null, reset_at: null, updated_at: null })}
            size="sm"
            aria-label={t('rate.title')}
          />
        </Stack>
      </Tooltip>
    );
  }
  return (
    <Stack gap={6} data-testid="rate-meter-full">
      <Group justify="space-between">
        <Text fw={600}>{t('rate.title')}</Text>
        <Text size="sm">{summary}</Text>
      </Group>
      <Progress
        value={value}
        color={colorFor(rate ?? { limit: null, remaining: null, reset_at: null, updated_at: null })}
        size="lg"
        aria-label={t('rate.title')}
      />
      {reset && (
        <Text size="sm" c="dimmed">
          {t('rate.resetAt', { time: reset })}
        </Text>
      )}
      {exhausted && (
        <Text size="sm" c="red.9" fw={600} role="status">
          {reset ? t('rate.exhaustedUntil', { time: reset }) : t('rate.exhausted')}
        </Text>
      )}
    </Stack>
  );
}
