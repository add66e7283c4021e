import { Badge, Group, Pagination, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ImplantPageView, ImplantView } from '../../../../preload/contract';

/** Millimetres in the reader's language (4,1 in Spanish, 4.1 in English). */
export function useMm(): (n: number) => string {
  const { i18n } = useTranslation();
  const f = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  return (n) => f.format(n);
}

type Props = {
  implants: ImplantView[];
  caption: string;
  /** For near matches: the size asked for, to show how far each entry is from it. */
  near?: { length?: number; diameter?: number };
  testId: string;
  /** Leave the brand column out (the models of one brand). */
  hideBrand?: boolean;
};

/** Catalog entries in a table; near matches carry a mark and their difference from the size asked for. */
export function ImplantTable({ implants, caption, near, testId, hideBrand = false }: Props) {
  const { t } = useTranslation();
  const mm = useMm();
  const diff = (got: number, wanted: number | undefined): string | null => {
    if (wanted === undefined) return null;
    const d = Math.round((got - wanted) * 100) / 100;
    return d === 0 ? null : `${d > 0 ? '+' : '−'}${mm(Math.abs(d))}`;
  };
  return (
    <Table striped verticalSpacing={6} data-testid={testId}>
      <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          {!hideBrand && <Table.Th scope="col">{t('implants.cols.brand')}</Table.Th>}
          <Table.Th scope="col">{t('implants.cols.line')}</Table.Th>
          <Table.Th scope="col">{t('implants.cols.diameter')}</Table.Th>
          <Table.Th scope="col">{t('implants.cols.length')}</Table.Th>
          <Table.Th scope="col">{t('implants.cols.platform')}</Table.Th>
          <Table.Th scope="col">{t('implants.cols.connection')}</Table.Th>
          {near && <Table.Th scope="col">{t('implants.cols.match')}</Table.Th>}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {implants.map((e, i) => {
          const dd = near ? diff(e.diameter, near.diameter) : null;
          const dl = near ? diff(e.length, near.length) : null;
          return (
            <Table.Tr
              key={e.id ?? `${e.brand}-${e.product_line}-${e.diameter}-${e.length}-${i}`}
              data-testid="implant-row"
              data-near={near ? 'true' : 'false'}
            >
              {!hideBrand && <Table.Td>{e.brand}</Table.Td>}
              <Table.Td>{e.product_line}</Table.Td>
              <Table.Td>
                {mm(e.diameter)}{' '}
                {dd && (
                  <Text span size="xs" fw={700} className="implant-diff">
                    ({dd})
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {mm(e.length)}{' '}
                {dl && (
                  <Text span size="xs" fw={700} className="implant-diff">
                    ({dl})
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{e.platform ?? '—'}</Table.Td>
              <Table.Td>
                <Text size="sm" lineClamp={1} title={e.connection ?? undefined}>
                  {e.connection ?? '—'}
                </Text>
              </Table.Td>
              {near && (
                <Table.Td>
                  <Badge color="orange" variant="light" size="sm" data-testid="near-badge">
                    {t('implants.nearBadge')}
                  </Badge>
                </Table.Td>
              )}
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

/** Page numbers under a list, with the range shown in words. */
export function Pager({
  total,
  limit,
  offset,
  onOffset,
  label,
}: {
  total: number;
  limit: number;
  offset: number;
  onOffset: (o: number) => void;
  label: string;
}) {
  const { t } = useTranslation();
  if (total <= limit) return null;
  const pages = Math.ceil(total / limit);
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {t('implants.range', { from: offset + 1, to: Math.min(total, offset + limit), total })}
      </Text>
      <nav aria-label={label}>
        <Pagination
          total={pages}
          value={Math.floor(offset / limit) + 1}
          onChange={(p) => onOffset((p - 1) * limit)}
          size="sm"
          getControlProps={(control) => ({ 'aria-label': t(`implants.pager.${control}`) })}
          getItemProps={(page) => ({ 'aria-label': t('implants.pager.page', { page }) })}
          data-testid="implant-pager"
        />
      </nav>
    </Group>
  );
}

type PagedProps = {
  page: ImplantPageView;
  caption: string;
  testId: string;
  hideBrand?: boolean;
  offset: number;
  onOffset: (o: number) => void;
};

/** One page of catalog entries and the pager under it. */
export function PagedTable({ page, caption, testId, hideBrand, offset, onOffset }: PagedProps) {
  const { t } = useTranslation();
  return (
    <>
      <ImplantTable implants={page.implants} caption={caption} testId={testId} hideBrand={hideBrand} />
      <Pager
        total={page.total}
        limit={page.limit}
        offset={offset}
        onOffset={onOffset}
        label={t('implants.pager.label')}
      />
    </>
  );
}
