import { Badge, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { KeysStatus } from '../../../preload/contract';

/** Which key the app uses right now: live or sandbox, with its last four characters. */
export function KeyIndicator({ status }: { status: KeysStatus | undefined }) {
  const { t } = useTranslation();
  const active = status?.active ?? null;
  if (!status || active === null) {
    return (
      <Badge color="gray" variant="outline" size="lg" data-testid="key-indicator" data-kind="none">
        {t('keys.noneActive')}
      </Badge>
    );
  }
  const slot = status[active];
  const label = active === 'sandbox' ? t('keys.sandboxInUse') : t('keys.liveInUse');
  return (
    <Tooltip label={slot.session_only ? t('keys.sessionOnlyHint') : t('keys.inKeychainHint')} withArrow>
      <Badge
        color={active === 'sandbox' ? 'yellow.4' : 'teal.9'}
        c={active === 'sandbox' ? '#1a1200' : 'white'}
        variant="filled"
        size="lg"
        tt="none"
        tabIndex={0}
        data-testid="key-indicator"
        data-kind={active}
      >
        {label}
        {slot.hint ? ` ···${slot.hint}` : ''}
      </Badge>
    </Tooltip>
  );
}
