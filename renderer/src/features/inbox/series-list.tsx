import { Checkbox, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { InboxSeries } from '../../../../preload/contract';
import { formatBytes } from '../../components/format';
import { useLanguage } from '../../components/use-language';
import { VirtualList } from '../../components/virtual-list';

const ROW = 40;

type Props = { series: InboxSeries[]; disabled: boolean; onToggle: (seriesUid: string, include: boolean) => void };

/** The series of a study, each with a checkbox to leave it out of the upload (virtualised: scanners can write many). */
export function SeriesList({ series, disabled, onToggle }: Props) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const height = Math.min(series.length, 6) * ROW + 2;
  return (
    <VirtualList
      items={series}
      keyOf={(s) => s.series_uid}
      rowHeight={ROW}
      overscan={8}
      height={height}
      box={{
        testId: 'series-list',
        role: 'group',
        label: t('inbox.seriesLabel'),
        style: { border: '1px solid var(--mantine-color-gray-3)', borderRadius: 6 },
      }}
      rowStyle={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
    >
      {(s, index) => {
        const label = s.description || t('inbox.seriesUntitled', { n: index + 1 });
        return (
          <Group justify="space-between" wrap="nowrap" px="sm" h="100%" data-testid="series-row">
            <Checkbox
              checked={!s.excluded}
              disabled={disabled}
              onChange={(e) => onToggle(s.series_uid, e.currentTarget.checked)}
              label={`${label} (${s.modality})`}
              styles={{ label: { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } }}
            />
            <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
              {t('inbox.filesCount', { count: s.files })} · {formatBytes(s.bytes, lang)}
            </Text>
          </Group>
        );
      }}
    </VirtualList>
  );
}
