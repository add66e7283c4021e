import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { ExamView } from '../../../../preload/contract';
import { ErrorAlert } from '../../components/error-alert';
import { formatNumber } from '../../components/format';
import { useLanguage } from '../../components/use-language';
import { ExamStatusBadge, ExamTypeBadge, formatDateTime } from './exam-badges';
import { useExamPages } from './exam-queries';
import { matchesFilter } from './exam-filter';
import { VirtualList } from '../../components/virtual-list';
import { Loading } from '../../components/loading';

const ROW_HEIGHT = 72;

function ExamRow({ exam }: { exam: ExamView }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  return (
    <Paper
      component={Link}
      to={`/exams/${encodeURIComponent(exam.id)}`}
      withBorder
      px="md"
      py={8}
      h={ROW_HEIGHT - 8}
      className="exam-row"
      data-testid="exam-row"
      data-exam-id={exam.id}
      style={{ display: 'flex', alignItems: 'center', gap: 16, textDecoration: 'none', color: 'inherit' }}
    >
      <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
        <Text fw={700} truncate data-testid="exam-name">
          {exam.name}
        </Text>
        <Text size="sm" c="dimmed" truncate>
          {[exam.patient_name || t('exams.noPatient'), exam.patient_id].filter(Boolean).join(' · ')}
        </Text>
      </Stack>
      <ExamTypeBadge type={exam.exam_type} />
      <ExamStatusBadge status={exam.status} />
      <Text size="sm" w={240} ta="right" c="dimmed" style={{ flexShrink: 0 }}>
        {exam.created_at ? t('exams.created', { date: formatDateTime(exam.created_at, lang) }) : ''}
      </Text>
    </Paper>
  );
}

/** While a filter is typed: how much of the list was searched, and a way to search older exams. */
function FilterNotice({
  shown,
  loaded,
  total,
  hasNextPage,
  fetching,
  onSearchOlder,
}: {
  shown: number;
  loaded: number;
  total: number;
  hasNextPage: boolean;
  fetching: boolean;
  onSearchOlder: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      {hasNextPage && (
        <Group gap="sm">
          <Text size="sm" data-testid="exams-partial">
            {shown === 0 ? t('exams.noMatch', { loaded }) : t('exams.partialSearch', { loaded, total })}
          </Text>
          <Button
            size="xs"
            variant="default"
            onClick={onSearchOlder}
            loading={fetching}
            data-testid="exams-search-older"
          >
            {t('exams.searchOlder')}
          </Button>
        </Group>
      )}
      {!hasNextPage && shown === 0 && loaded > 0 && (
        <Text size="sm" data-testid="exams-no-match">
          {t('exams.noMatch', { loaded })}
        </Text>
      )}
    </>
  );
}

/** The account's exams, newest first: a filter, and a virtualised list that fetches one more page as it nears the end. */
export function ExamsPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const pages = useExamPages();
  const deleted = (useLocation().state as { deleted?: string; already?: boolean } | null) ?? null;
  const [query, setQuery] = useState('');
  const loaded = useMemo(() => pages.data?.pages.flatMap((p) => p.exams) ?? [], [pages.data]);
  const total = pages.data?.pages.at(-1)?.total ?? 0;
  const shown = useMemo(() => loaded.filter((e) => matchesFilter(e, query)), [loaded, query]);
  const [lastIndex, setLastIndex] = useState(-1);
  const filtering = query.trim() !== '';
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;

  // Scrolling near the end asks for the next page; never more than one at a time, and not while a
  // filter is typed (older exams are then searched on request, one page per press).
  useEffect(() => {
    if (!filtering && hasNextPage && !isFetchingNextPage && lastIndex >= shown.length - 8) void fetchNextPage();
  }, [filtering, hasNextPage, isFetchingNextPage, lastIndex, shown.length, fetchNextPage]);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={2}>{t('exams.title')}</Title>
        {pages.data && (
          <Text size="sm" c="dimmed" data-testid="exams-count">
            {t('exams.count', {
              shown: formatNumber(filtering ? shown.length : loaded.length, lang),
              total: formatNumber(total, lang),
            })}
          </Text>
        )}
      </Group>
      {deleted?.deleted !== undefined && (
        <Alert color="teal" role="status" data-testid="exam-deleted">
          {deleted.already ? t('exams.overview.alreadyDeleted') : t('exams.overview.deleted')}
        </Alert>
      )}
      <TextInput
        label={t('exams.filterLabel')}
        placeholder={t('exams.filterPlaceholder')}
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        data-testid="exams-filter"
        type="search"
      />
      {pages.isPending && <Loading />}
      <ErrorAlert error={pages.error} />
      {pages.data && loaded.length === 0 && (
        <Text c="dimmed" data-testid="exams-empty">
          {t('exams.empty')}
        </Text>
      )}
      {filtering && (
        <FilterNotice
          shown={shown.length}
          loaded={loaded.length}
          total={total}
          hasNextPage={hasNextPage}
          fetching={isFetchingNextPage}
          onSearchOlder={() => void fetchNextPage()}
        />
      )}
      {shown.length > 0 && (
        <VirtualList
          items={shown}
          keyOf={(exam) => exam.id}
          rowHeight={ROW_HEIGHT}
          overscan={6}
          height="calc(100vh - 290px)"
          box={{ testId: 'exams-list', role: 'region', label: t('exams.listLabel'), focusable: true }}
          rowStyle={{ right: 4 }}
          onLastIndex={setLastIndex}
        >
          {(exam) => <ExamRow exam={exam} />}
        </VirtualList>
      )}
      {isFetchingNextPage && !filtering && (
        <Text size="sm" c="dimmed" data-testid="exams-loading-more">
          {t('exams.loadingMore')}
        </Text>
      )}
    </Stack>
  );
}
