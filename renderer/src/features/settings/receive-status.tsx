import { Alert, Badge, Group, List, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ReceiveProblem, ReceiveStatus } from '../../../../preload/contract';
import { formatTime } from '../../components/format';
import { useLanguage } from '../../components/use-language';

const COLORS = { listening: 'teal', port_in_use: 'red', failed: 'red', stopped: 'gray' } as const;

/** A listener problem in the window's language: the catalogue's `core.receive.problem.<code>`, its facts as values. */
function useProblemWords(): (p: ReceiveProblem) => string {
  const { t } = useTranslation();
  return (p) => t(`core.receive.problem.${p.code}`, p);
}

/** The listener's state in words: listening / port in use / stopped, the last association, its latest problems. */
export function ReceiveStatusView({ status, port }: { status: ReceiveStatus; port: number }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const words = useProblemWords();
  const last = status.last_association;
  return (
    <Stack gap="xs" data-testid="receive-status">
      <Group gap="sm">
        <Text size="sm" fw={600}>
          {t('receive.stateLabel')}
        </Text>
        <Badge color={COLORS[status.state]} variant="light" size="lg" data-testid="receive-state">
          {t(`receive.state.${status.state}`, { port: status.port ?? port })}
        </Badge>
      </Group>
      {(status.state === 'port_in_use' || status.state === 'failed') && (
        <Alert color="red" variant="light" title={t(`receive.state.${status.state}`, { port: status.port ?? port })}>
          {t(status.state === 'port_in_use' ? 'receive.portInUseHelp' : 'receive.failedHelp', {
            message: status.problem ? words(status.problem) : '',
          })}
        </Alert>
      )}
      <Text size="sm" data-testid="receive-last">
        {last
          ? t(`receive.last_${last.outcome}`, {
              aet: last.calling_aet,
              address: last.address,
              when: formatTime(last.at, lang),
              count: last.objects,
            })
          : t('receive.lastNone')}
      </Text>
      {status.errors.length > 0 && (
        <Alert color="orange" variant="light" title={t('receive.errorsTitle')} data-testid="receive-errors">
          <List size="sm">
            {status.errors
              .slice(-3)
              .reverse()
              .map((e) => (
                <List.Item key={`${e.at}${e.problem.code}`}>
                  {formatTime(e.at, lang)} · <bdi>{words(e.problem)}</bdi>
                </List.Item>
              ))}
          </List>
        </Alert>
      )}
    </Stack>
  );
}
