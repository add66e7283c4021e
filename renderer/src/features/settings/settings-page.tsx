import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAppInfo, useKeysStatus, useSettings } from '../../app/queries';
import { ErrorAlert } from '../../components/error-alert';
import { CaFileSection } from './ca-file-section';
import { ConnectionCheckSection } from './connection-check-section';
import { ConsentSection } from './consent-section';
import { FoldersSection } from './folders-section';
import { GeneralSection } from './general-section';
import { HelpSection } from './help-section';
import { KeysSection } from './keys-section';
import { NetworkSection } from './network-section';
import { ReceiveSection } from './receive-section';
import { UploadSection } from './upload-section';
import { Loading } from '../../components/loading';

/** Settings: watch folders, upload options, language and names, keys. */
export function SettingsPage() {
  const { t } = useTranslation();
  const settings = useSettings();
  const status = useKeysStatus();
  const info = useAppInfo().data;
  return (
    <Stack gap="lg" maw={980}>
      <Title order={2}>{t('settings.title')}</Title>
      {settings.isPending && <Loading />}
      <ErrorAlert error={settings.error ?? status.error} />
      {settings.data && (
        <>
          <FoldersSection settings={settings.data} />
          <ReceiveSection />
          <UploadSection settings={settings.data} />
          <GeneralSection settings={settings.data} />
          <ConsentSection settings={settings.data} />
        </>
      )}
      {status.data && <KeysSection status={status.data} />}
      <NetworkSection />
      <CaFileSection />
      <ConnectionCheckSection />
      <HelpSection />
      {info && (
        <Text size="sm" c="dimmed" data-testid="app-info">
          {t('settings.about', {
            version: info.version,
            transport: t(`settings.transport_${info.transport}`),
            platform: info.platform,
          })}
        </Text>
      )}
    </Stack>
  );
}
