import { Checkbox, Group, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { InboxSeries } from '../../../../preload/contract';
import { formatBytes } from '../../components/format';
import { useLanguage } from '../../components/use-language';

const ROW = 40;

type Props = { series: InboxSeries[]; disabled: boolean; onToggle: (seriesUid: string, include: boolean) => void };

/** The series of a study, each with a checkbox to leave it out of the upload (virtualised: scanners can write many). */
export function SeriesList({ series, disabled, onToggle }: Props) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: series.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    overscan: 8,
  });
  const height = Math.min(series.length, 6) * ROW + 2;
  return (
    <div
      ref={scrollRef}
      style={{ height, overflowY: 'auto', border: '1px solid var(--mantine-color-gray-3)', borderRadius: 6 }}
      data-testid="series-list"
      role="group"
      aria-label={t('inbox.seriesLabel')}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((row) => {
          const s = series[row.index];
          if (!s) return null;
          const label = s.description || t('inbox.seriesUntitled', { n: row.index + 1 });
          return (
            <Group
              key={s.series_uid}
              justify="space-between"
              wrap="nowrap"
              px="sm"
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                height: ROW,
                transform: `translateY(${row.start}px)`,
                borderBottom: '1px solid var(--mantine-color-gray-2)',
              }}
              data-testid="series-row"
            >
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
        })}
      </div>
    </div>
  );
}
