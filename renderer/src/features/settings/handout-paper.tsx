// The paper of the patient's printed sheet (A4 or A5), beside the language: saved as soon as it is picked.
import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Settings } from '../../../../preload/contract';
import { useSettingsCall } from '../../app/queries';
import { ErrorAlert } from '../../components/error-alert';

export function HandoutPaperSelect({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const update = useSettingsCall('settings:update');
  return (
    <>
      <NativeSelect
        label={t('handout.paper.label')}
        description={t('handout.paper.help')}
        value={settings.handout_paper}
        w={320}
        data={[
          { value: 'A4', label: 'A4 (210 × 297 mm)' },
          { value: 'A5', label: 'A5 (148 × 210 mm)' },
        ]}
        onChange={(e) => update.mutate({ handout_paper: e.currentTarget.value === 'A5' ? 'A5' : 'A4' })}
        data-testid="settings-handout-paper"
      />
      <ErrorAlert error={update.error} />
    </>
  );
}
