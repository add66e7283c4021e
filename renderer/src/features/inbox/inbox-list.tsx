import { Badge, Group, Text, UnstyledButton } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { InboxItem } from '../../../../preload/contract';
import { formatBytes, formatDate } from '../../components/format';
import { useLanguage } from '../../components/use-language';
import { statusColor } from './status';

const ROW = 78;

type Props = { items: InboxItem[]; selectedId: string | null; onSelect: (id: string) => void; height: number | string };

/** The detected studies, newest first; virtualised so a long day of exports stays smooth. */
export function InboxList({ items, selectedId, onSelect, height }: Props) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    overscan: 6,
  });
  return (
    <div
      ref={scrollRef}
      style={{ height, overflowY: 'auto' }}
      data-testid="inbox-list"
      role="region"
      aria-label={t('inbox.listLabel')}
    >
      <ul
        style={{ height: virtualizer.getTotalSize(), position: 'relative', margin: 0, padding: 0, listStyle: 'none' }}
      >
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index];
          if (!item) return null;
          const selected = item.id === selectedId;
          return (
            <li
              key={item.id}
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                height: ROW,
                transform: `translateY(${row.start}px)`,
                padding: '3px 4px',
              }}
            >
              <UnstyledButton
                onClick={() => onSelect(item.id)}
                aria-current={selected ? 'true' : undefined}
                data-testid="inbox-item"
                data-status={item.status}
                w="100%"
                h="100%"
                px="sm"
                py={6}
                style={{
                  borderRadius: 6,
                  border: `1px solid ${selected ? 'var(--mantine-color-blue-7)' : 'var(--mantine-color-gray-3)'}`,
                  background: selected ? 'var(--mantine-color-blue-0)' : 'white',
                }}
              >
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text fw={600} size="sm" truncate>
                    {item.fields.patient_name || t('inbox.noPatientName')}
                  </Text>
                  <Badge size="xs" color={statusColor(item.status)} variant="light" style={{ flexShrink: 0 }}>
                    {t(`inbox.status.${item.status}`)}
                  </Badge>
                </Group>
                <Text size="xs" c="dimmed" truncate>
                  {item.fields.name}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {[
                    item.received_from ? t('receive.fromShort', { aet: item.received_from.calling_aet }) : '',
                    formatDate(item.study_date, lang),
                    item.modality,
                    t('inbox.filesCount', { count: item.files }),
                    formatBytes(item.bytes, lang),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                  {item.warnings.length > 0 ? ` · ⚠ ${item.warnings.length}` : ''}
                </Text>
              </UnstyledButton>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
