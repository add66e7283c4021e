import { Badge, Group, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { InboxItem } from '../../../../preload/contract';
import { useLanguage } from '../../components/use-language';
import { statusColor, studyFacts } from './status';
import { VirtualList } from '../../components/virtual-list';

const ROW = 78;

type Props = { items: InboxItem[]; selectedId: string | null; onSelect: (id: string) => void; height: number | string };

/** The detected studies, newest first; virtualised so a long day of exports stays smooth. */
export function InboxList({ items, selectedId, onSelect, height }: Props) {
  const { t } = useTranslation();
  const lang = useLanguage();
  return (
    <VirtualList
      items={items}
      keyOf={(item) => item.id}
      rowHeight={ROW}
      overscan={6}
      height={height}
      box={{ testId: 'inbox-list', role: 'region', label: t('inbox.listLabel') }}
      list
      rowStyle={{ padding: '3px 4px' }}
    >
      {(item) => {
        const selected = item.id === selectedId;
        return (
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
                studyFacts(item, t, lang),
              ]
                .filter(Boolean)
                .join(' · ')}
              {item.warnings.length > 0 ? ` · ⚠ ${item.warnings.length}` : ''}
            </Text>
          </UnstyledButton>
        );
      }}
    </VirtualList>
  );
}
