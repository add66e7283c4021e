import { Button, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Settings } from '../../../../preload/contract';
import { useSettingsCall } from '../../app/queries';
import { ErrorAlert } from '../../components/error-alert';
import { useConsentDisplays } from './settings-queries';

const COUNTRIES = ['CL', 'AR', 'BO', 'BR', 'CO', 'CR', 'EC', 'ES', 'MX', 'PE', 'PY', 'UY', 'US', 'VE'];

/** Informed consent: the country (Chile asks for the RUT), the folder for signed copies, the patient's display. */
export function ConsentSection({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const [folder, setFolder] = useState(settings.consent.copies_folder ?? '');
  const [saved, setSaved] = useState(false);
  const displays = useConsentDisplays().data ?? [];
  const update = useSettingsCall('consent:settings');
  const country = COUNTRIES.includes(settings.consent.country_code)
    ? COUNTRIES
    : [settings.consent.country_code, ...COUNTRIES];
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="settings-consent">
      <Stack gap="md">
        <Title order={3} id="settings-consent">
          {t('consentSettings.title')}
        </Title>
        <NativeSelect
          label={t('consentSettings.country')}
          description={t('consentSettings.countryHelp')}
          value={settings.consent.country_code}
          w={480}
          data={country.map((c) => ({ value: c, label: c === 'CL' ? t('consentSettings.chile') : c }))}
          onChange={(e) => update.mutate({ country_code: e.currentTarget.value })}
          data-testid="settings-consent-country"
        />
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setSaved(false);
            update.mutate(
              { copies_folder: folder.trim() === '' ? null : folder.trim() },
              { onSuccess: () => setSaved(true) },
            );
          }}
        >
          <Group align="flex-end">
            <TextInput
              label={t('consentSettings.folder')}
              description={t('consentSettings.folderHelp')}
              placeholder={t('consentSettings.folderDefault')}
              value={folder}
              onChange={(e) => setFolder(e.currentTarget.value)}
              w={560}
              maxLength={4096}
            />
            <Button type="submit" variant="default">
              {t('common.save')}
            </Button>
          </Group>
        </form>
        {saved && (
          <Text size="sm" role="status">
            {t('common.saved')}
          </Text>
        )}
        {displays.length > 0 && (
          <NativeSelect
            label={t('consentSettings.display')}
            description={t('consentSettings.displayHelp')}
            value={settings.consent.display_id === null ? '' : String(settings.consent.display_id)}
            w={420}
            data={[
              { value: '', label: t('consentSettings.displayAuto') },
              ...displays.map((d) => ({
                value: String(d.id),
                label: `${d.label} (${d.width}×${d.height})${d.primary ? ` · ${t('consentSettings.primary')}` : ''}`,
              })),
            ]}
            onChange={(e) =>
              update.mutate({ display_id: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })
            }
          />
        )}
        <ErrorAlert error={update.error} />
      </Stack>
    </Paper>
  );
}
