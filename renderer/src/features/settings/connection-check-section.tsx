import { Alert, Badge, Button, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ConnectionCheckView, ConnectionStep, Language } from '../../../../preload/contract';
import { CONNECTION_STEPS } from '../../../../preload/contract/vocabulary';
import { ClockSkewAlert } from '../../components/clock-skew-alert';
import { ErrorAlert } from '../../components/error-alert';
import { formatDecimal } from '../../components/format';
import { useLanguage } from '../../components/use-language';
import { useConnectionCheck } from './settings-queries';
import { SettingsSection } from './settings-section';

type T = ReturnType<typeof useTranslation>['t'];

const hostOf = (url: string | null): string => {
  if (!url) return '';
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** A step that does not apply to this service: TLS when the address is plain http. */
const notUsed = (r: ConnectionCheckView, step: ConnectionStep): boolean =>
  step === 'tls' && !r.tls.used && r[step].status !== 'failed' && /^http:/i.test(r.api_url ?? '');

/** What a passing step saw, in a few words. */
function seen(r: ConnectionCheckView, step: ConnectionStep, t: T, lang: Language): string {
  switch (step) {
    case 'dns':
      return t('netcheck.seen.dns', { host: r.dns.host ?? '', addresses: r.dns.addresses.join(', ') });
    case 'tcp':
      return t('netcheck.seen.tcp', { target: r.tcp.target ?? '' });
    case 'proxy':
      return r.proxy.url
        ? t('netcheck.seen.proxy', { proxy: r.proxy.url, source: t(`netcheck.source.${r.proxy.source ?? 'env'}`) })
        : t('netcheck.seen.noProxy');
    case 'tls':
      return r.tls.used
        ? t('netcheck.seen.tls', { issuer: r.tls.issuer ?? '?', protocol: r.tls.protocol ?? '' })
        : t('netcheck.seen.noTls');
    case 'api_key':
      return t('netcheck.seen.key', {
        kind: t(`netcheck.kind.${r.api_key.key_kind ?? 'live'}`),
        plan: r.api_key.plan ?? '?',
        remaining: r.api_key.rate.remaining ?? '?',
        limit: r.api_key.rate.limit ?? '?',
      });
    case 'storage':
      return r.storage.cleaned_up
        ? t('netcheck.seen.storage', { host: r.storage.host ?? '' })
        : t('netcheck.seen.storageLeft', { host: r.storage.host ?? '' });
    case 'upload_speed': {
      const bps = r.upload_speed.bytes_per_second ?? 0;
      return t('netcheck.seen.speed', { mbps: formatDecimal((bps * 8) / 1_000_000, 1, lang) });
    }
  }
}

/** The words for a failed step, in the window's language. */
function problemWords(r: ConnectionCheckView, step: ConnectionStep, t: T): string {
  const s = r[step];
  const host = step === 'storage' && r.storage.host ? r.storage.host : hostOf(r.api_url);
  return t(`netcheck.problem.${s.problem ?? 'service_error'}`, {
    host,
    proxy: r.proxy.url ?? '',
    code: s.code ?? '',
  });
}

function StepRow({ report, step }: { report: ConnectionCheckView; step: ConnectionStep }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const s = report[step];
  const unused = notUsed(report, step);
  // Dark filled badges (the contrast the rest of the app uses), told apart by their word too.
  const color = s.status === 'ok' ? 'teal.9' : s.status === 'failed' ? 'red.9' : 'gray.8';
  return (
    <Table.Tr data-testid={`check-step-${step}`} data-status={unused ? 'not_used' : s.status}>
      <Table.Td w={200}>
        <Text fw={600}>{t(`netcheck.step.${step}`)}</Text>
      </Table.Td>
      <Table.Td w={130}>
        <Badge color={color}>{t(unused ? 'netcheck.status.not_used' : `netcheck.status.${s.status}`)}</Badge>
      </Table.Td>
      <Table.Td>
        {unused && <Text size="sm">{t('netcheck.notUsed')}</Text>}
        {!unused && s.status === 'ok' && <Text size="sm">{seen(report, step, t, lang)}</Text>}
        {!unused && s.status === 'skipped' && (
          <Text size="sm" c="dimmed">
            {t('netcheck.notChecked')}
          </Text>
        )}
        {s.status === 'failed' && (
          <Stack gap={2}>
            <Text size="sm" c="red.9">
              {problemWords(report, step, t)}
            </Text>
            {s.code && (
              <Text size="xs" c="dimmed">
                {t('netcheck.forIt', { code: s.code })}
              </Text>
            )}
          </Stack>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** Settings → Connection: "Check the connection", step by step, each step's result in words. */
export function ConnectionCheckSection() {
  const { t } = useTranslation();
  const check = useConnectionCheck();
  const report = check.data;
  return (
    <SettingsSection id="connection" title={t('netcheck.title')}>
      <Text size="sm">{t('netcheck.intro')}</Text>
      <Group>
        <Button onClick={() => check.mutate({})} loading={check.isPending} data-testid="check-connection">
          {t('netcheck.run')}
        </Button>
        {check.isPending && (
          <Group gap="xs">
            <Loader size="sm" aria-hidden />
            <Text size="sm">{t('netcheck.running')}</Text>
          </Group>
        )}
      </Group>
      <ErrorAlert error={check.error} />
      {report && (
        <>
          <Alert
            color={report.ok ? 'green' : 'red'}
            // The light green's own title colour is too pale on its background (axe: contrast).
            styles={report.ok ? { title: { color: '#1b5e20' } } : undefined}
            title={
              report.ok
                ? t('netcheck.works')
                : t('netcheck.failedAt', { step: t(`netcheck.step.${report.failed_step ?? 'dns'}`) })
            }
            data-testid="check-verdict"
          >
            {report.ok ? t('netcheck.worksBody') : report.failed_step && problemWords(report, report.failed_step, t)}
          </Alert>
          <ClockSkewAlert skewMs={report.clock_skew_ms} testId="check-clock-skew" />
          <Table data-testid="check-steps" verticalSpacing="xs" aria-label={t('netcheck.tableLabel')}>
            <Table.Tbody>
              {CONNECTION_STEPS.map((step) => (
                <StepRow key={step} report={report} step={step} />
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </SettingsSection>
  );
}
