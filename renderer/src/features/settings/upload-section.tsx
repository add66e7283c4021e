import { Group, NativeSelect, NumberInput, Paper, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { CompressSetting, Settings, UploadMode } from '../../../../preload/contract';
import { useSettingsCall } from '../../app/queries';
import { useCheckedForm } from '../../components/checked-form';
import { DecimalInput } from '../../components/decimal-input';
import type { DecimalResult } from '../../components/decimal';
import { SaveRow } from './save-row';
import { compressOptions, fromMegabytes, toMegabytes, uploadModeOptions, wholeNumber } from './options';

type UploadValues = {
  concurrency: number | string;
  limit: DecimalResult;
  mode: UploadMode;
  compress: CompressSetting;
};

/** A bandwidth the field refused stops the save (the field itself says why); other numbers fall back. */
const uploadSchema = z.object({
  limit: z.custom<DecimalResult>().refine((r) => r.kind !== 'bad'),
});

/** How uploads run: parallel transfers, a bandwidth cap, files or one zip. */
export function UploadSection({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  // 1,5 and 1.5 MB/s alike (components/decimal.ts); empty means no limit.
  const form = useCheckedForm<UploadValues>(uploadSchema, {
    concurrency: settings.upload.concurrency,
    limit: { kind: 'ok', value: toMegabytes(settings.upload.bandwidth_limit) },
    mode: settings.upload.mode,
    compress: settings.upload.compress,
  });
  const { limit } = form.values;
  const [saved, setSaved] = useState(false);
  const update = useSettingsCall('settings:update');
  const save = (): void => {
    setSaved(false);
    if (form.validate().hasErrors) return;
    const { concurrency, mode, compress } = form.getValues();
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
            {...form.getInputProps('concurrency')}
            min={1}
            max={16}
            allowDecimal={false}
            data-testid="settings-concurrency"
          />
          <DecimalInput
            label={t('settings.upload.bandwidth')}
            description={t('settings.upload.bandwidthHelp')}
            value={limit.kind === 'ok' ? limit.value : null}
            onChange={(r) => form.setFieldValue('limit', r)}
            rule={{ min: 0, max: 10240, decimals: 2 }}
            testId="settings-bandwidth"
          />
          <NativeSelect
            label={t('settings.upload.mode')}
            description={t('settings.upload.modeHelp')}
            {...form.getInputProps('mode')}
            data={uploadModeOptions(t)}
            data-testid="settings-upload-mode"
          />
          <NativeSelect
            label={t('settings.upload.compress')}
            description={t('settings.upload.compressHelp')}
            {...form.getInputProps('compress')}
            data={compressOptions(t)}
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
