// Shown on every screen while the settings file was found damaged (set aside, the last good copy
// put back or the defaults in use) and staff have not yet said they read it: the clinic's watch
// folders and listener settings must never change without a word.
import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSettings, useSettingsCall } from '../app/queries';
import { ErrorAlert } from './error-alert';
import { formatTime } from './format';
import { useLanguage } from './use-language';

export function SettingsDamageAlert() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const damage = useSettings().data?.damage;
  const dismiss = useSettingsCall('settings:dismiss-damage');
  if (!damage) return null;
  const restored = damage.restored;
  return (
    <Alert
      color={restored ? 'yellow' : 'red'}
      variant="light"
      mb="md"
      role="alert"
      title={t(restored ? 'settingsDamage.restoredTitle' : 'settingsDamage.defaultsTitle')}
      data-testid="settings-damage"
    >
      <Text size="sm">
        {restored
          ? t('settingsDamage.restoredBody', {
              saved: damage.copy_of ? formatTime(damage.copy_of, lang) : '—',
            })
          : t('settingsDamage.defaultsBody')}
      </Text>
      <Text size="xs" c="dimmed" mt={4}>
        {t('settingsDamage.setAside', { path: damage.set_aside })}
      </Text>
      <Group mt="sm">
        <Button size="xs" variant="default" onClick={() => dismiss.mutate({})} loading={dismiss.isPending}>
          {t('settingsDamage.dismiss')}
        </Button>
      </Group>
      <ErrorAlert error={dismiss.error} />
    </Alert>
  );
}
