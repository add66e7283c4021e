import { Grid, NativeSelect, NumberInput, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LanguageSetting, Settings } from '../../../../preload/contract';
import { applyLanguage, effectiveLanguage } from '../../app/i18n';
import { useAppInfo, useSettingsCall } from '../../app/queries';
import { HandoutPaperSelect } from './handout-paper';
import { SaveRow } from './save-row';
import { wholeNumber } from './options';

/** Language, the exam-name template and the default expiration. */
export function GeneralSection({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const [template, setTemplate] = useState(settings.exam_name_template);
  const [expiration, setExpiration] = useState<number | string>(settings.default_expiration_days ?? '');
  const [saved, setSaved] = useState(false);
  const update = useSettingsCall('settings:update');
  const systemLanguage = useAppInfo().data?.system_language;
  const setLanguage = (language: LanguageSetting): void => {
    applyLanguage(effectiveLanguage(language, systemLanguage ?? navigator.language));
    update.mutate({ language });
  };
  const save = (): void => {
    setSaved(false);
    update.mutate(
      {
        exam_name_template: template.trim() || settings.exam_name_template,
        default_expiration_days: wholeNumber(expiration, 1, 3650),
      },
      { onSuccess: () => setSaved(true) },
    );
  };
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="settings-general">
      <Stack gap="md">
        <Title order={3} id="settings-general">
          {t('settings.general.title')}
        </Title>
        <NativeSelect
          label={t('settings.language')}
          description={t('settings.languageHelp')}
          value={settings.language}
          data-testid="settings-language"
          w={320}
          data={[
            { value: 'system', label: t('settings.languageSystem') },
            { value: 'es', label: 'Español' },
            { value: 'en', label: 'English' },
          ]}
          onChange={(e) => setLanguage(e.currentTarget.value as LanguageSetting)}
        />
        <HandoutPaperSelect settings={settings} />
        <Grid gap="md">
          <Grid.Col span={7}>
            <TextInput
              label={t('settings.general.template')}
              description={t('settings.general.templateHelp')}
              value={template}
              maxLength={200}
              onChange={(e) => setTemplate(e.currentTarget.value)}
              data-testid="settings-template"
            />
          </Grid.Col>
          <Grid.Col span={5}>
            <NumberInput
              label={t('settings.general.expiration')}
              description={t('settings.general.expirationHelp')}
              value={expiration}
              onChange={setExpiration}
              min={1}
              max={3650}
              allowDecimal={false}
              placeholder={t('settings.general.never')}
            />
          </Grid.Col>
        </Grid>
        <SaveRow
          onSave={save}
          pending={update.isPending}
          saved={saved}
          error={update.error}
          testId="settings-general-save"
        />
      </Stack>
    </Paper>
  );
}
