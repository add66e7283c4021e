// The Inbox's word on the service: when the agent's calls get no answer, studies still arrive here
// but their uploads wait, and staff should know why (and that nothing is lost) instead of seeing a
// quiet screen. Said from the agent's last call (service:reach); gone once the service answers.
import { Alert, Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useServiceReach } from '../../app/queries';
import { useLanguage } from '../../components/use-language';
import { formatTime } from '../../components/format';

export function ServiceReachNotice() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const reach = useServiceReach().data;
  if (!reach || reach.state !== 'unreachable') return null;
  const host = reach.host ?? '';
  const cause = t(`reach.problem.${reach.problem ?? 'no_answer'}`, { host });
  return (
    <Alert color="orange" variant="light" role="status" data-testid="service-unreachable" title={t('reach.title')}>
      <Text size="sm">
        {reach.since ? t('reach.since', { time: formatTime(reach.since, lang) }) : null} {cause} {t('reach.waiting')}{' '}
        <Anchor component={Link} to="/settings" data-testid="reach-check-connection">
          {t('reach.check')}
        </Anchor>
      </Text>
    </Alert>
  );
}
