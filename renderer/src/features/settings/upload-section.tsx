import { Group, NativeSelect, NumberInput, Paper, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CompressSetting, Settings, UploadMode } from '../../../../preload/contract';
import { useSettingsCall } from '../../app/queries';
import { DecimalInput } from '../../components/decimal-input';
import type { DecimalResult } from '../../components/decimal';
import { SaveRow } from './save-row';
import { compressOptions, fromMegabytes, toMegabytes, uploadModeOptions, wholeNumber } from './options';

/** How uploads run: parallel transfers, a bandwidth cap, files or one zip. */
export function UploadSection({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const [concurrency, setConcurrency] = useState<number | string>(settings.upload.concurrency);
  // 1,5 and 1.5 MB/s alike (components/decimal.ts); empty means no limit.
  const [limit, setLimit] = useState<DecimalResult>({
    kind: 'ok',
    value: toMegabytes(settings.upload.bandwidth_limit),
  });
  const [mode, setMode] = useState<UploadMode>(settings.upload.mode);
  const [compress, setCompress] = useState<CompressSetting>(settings.upload.compress);
  const [saved, setSaved] = useState(false);
  const update = useSettingsCall('settings:update');
  const save = (): void => {
    setSaved(false);
    if (limit.kind === 'bad') return;
    const mb = limit.kind === 'ok' ? limit.value : 0;
    update.mutate(
      {
        upload: {
          concurrency: wholeNumber(concurrency, 1, 16) ?? settings.upload.concurrency,
          bandwidth_limit: fromMegabytes(mb),
          mode,
          compress,
        },
      },
      { onSuccess: () => setSaved(true) },
    );
  };
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="settings-upload">
      <Stack gap="md">
        <Title order={3} id="settings-upload">
          {t('settings.upload.title')}
        </Title>
        <Group align="flex-start" grow>
          <NumberInput
            label={t('settings.upload.concurrency')}
            description={t('settings.upload.concurrencyHelp')}
            value={concurrency}
            onChange={setConcurrency}
            min={1}
            max={16}
            allowDecimal={false}
            data-testid="settings-concurrency"
          />
          <DecimalInput
            label={t('settings.upload.bandwidth')}
            description={t('settings.upload.bandwidthHelp')}
            value={limit.kind === 'ok' ? limit.value : null}
            onChange={setLimit}
            rule={{ min: 0, max: 10240, decimals: 2 }}
            testId="settings-bandwidth"
          />
          <NativeSelect
            label={t('settings.upload.mode')}
            description={t('settings.upload.modeHelp')}
            value={mode}
            data={uploadModeOptions(t)}
            onChange={(e) => setMode(e.currentTarget.value as UploadMode)}
            data-testid="settings-upload-mode"
          />
          <NativeSelect
            label={t('settings.upload.compress')}
            description={t('settings.upload.compressHelp')}
            value={compress}
            data={compressOptions(t)}
            onChange={(e) => setCompress(e.currentTarget.value as CompressSetting)}
            data-testid="settings-upload-compress"
          />
        </Group>
        <SaveRow
          onSave={save}
          pending={update.isPending}
          saved={saved}
          error={update.error}
          testId="settings-upload-save"
        />
      </Stack>
    </Paper>
  );
}
