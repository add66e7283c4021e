// Settings → Help: what support needs when something went wrong. "Open the log folder" shows the
// log (CONTRACTS.md §3) in the system's file manager on the desktop; in browser mode, where the
// page cannot open a folder, it names the folder. "Save a support bundle" makes the ZIP of
// `scanbridge support-bundle` in main and saves it through the browser's download (the desktop app
// asks where to save it).
import { Alert, Button, Code, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/error-alert';
import { formatBytes } from '../../components/format';
import { downloadBytes } from '../../components/download';
import { useLanguage } from '../../components/use-language';
import { useOpenLogFolder, useSupportBundle } from './settings-queries';
import { SettingsSection } from './settings-section';

export function HelpSection() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const folder = useOpenLogFolder();
  const bundle = useSupportBundle((r) => downloadBytes(r.zip_base64, r.file_name, 'application/zip'));
  return (
    <SettingsSection id="help" title={t('help.title')}>
      <Text size="sm">{t('help.intro')}</Text>
      <Group>
        <Button
          variant="default"
          onClick={() => folder.mutate({})}
          loading={folder.isPending}
          data-testid="help-open-logs"
        >
          {t('help.openLogs')}
        </Button>
        <Button onClick={() => bundle.mutate({})} loading={bundle.isPending} data-testid="help-save-bundle">
          {t('help.saveBundle')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('help.bundleHint')}
      </Text>
      {bundle.isPending && <Text size="sm">{t('help.preparing')}</Text>}
      {folder.data &&
        (folder.data.opened ? (
          <Text size="sm" data-testid="help-logs-opened">
            {t('help.logsOpened')}
          </Text>
        ) : (
          <Alert color="blue" data-testid="help-logs-path" title={t('help.logsHere')}>
            <Code block>{folder.data.path}</Code>
          </Alert>
        ))}
      {bundle.data && !bundle.isPending && (
        <Alert color="teal" data-testid="help-bundle-saved" title={t('help.bundleSavedTitle')}>
          {t('help.bundleSaved', {
            name: bundle.data.file_name,
            entries: bundle.data.entries,
            size: formatBytes(bundle.data.bytes, lang),
          })}
        </Alert>
      )}
      <ErrorAlert error={folder.error ?? bundle.error} />
    </SettingsSection>
  );
}
