import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../../preload/contract';
import { applyLanguage } from '../app/i18n';
import { useSettingsCall } from '../app/queries';
import { useLanguage } from './use-language';

/** The header's language switch: applies at once and is saved in the settings. */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const save = useSettingsCall('settings:update');
  return (
    <NativeSelect
      aria-label={t('settings.language')}
      data-testid="language-switch"
      size="xs"
      w={110}
      value={lang}
      data={[
        { value: 'es', label: 'Español' },
        { value: 'en', label: 'English' },
      ]}
      onChange={(e) => {
        const next = e.currentTarget.value as Language;
        applyLanguage(next);
        save.mutate({ language: next });
      }}
    />
  );
}
