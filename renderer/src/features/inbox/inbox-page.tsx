import { Alert, Anchor, Grid, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { InboxItem, InboxStatus } from '../../../../preload/contract';
import { useInbox, useSettings } from '../../app/queries';
import { ErrorAlert } from '../../components/error-alert';
import { ClockSkewNotice } from './clock-skew-notice';
import { UnreachableFolders } from './unreachable-folders';
import { InboxDetail } from './inbox-detail';
import { InboxList } from './inbox-list';
import { ServiceReachNotice } from './service-reach-notice';
import { SkippedCopiesNotice } from './skipped-copies-notice';
import { Loading } from '../../components/loading';

type Filter = InboxStatus | 'all';

/** Newest first. */
const byDetected = (a: InboxItem, b: InboxItem): number => b.detected_at.localeCompare(a.detected_at);

/** The front desk's inbox: what the scanners exported, to check and upload. */
export function InboxPage() {
  const { t } = useTranslation();
  const inbox = useInbox();
  const settings = useSettings().data;
  const [filter, setFilter] = useState<Filter>('review');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [queued, setQueued] = useState<string | null>(null);
  const all = useMemo(() => [...(inbox.data ?? [])].sort(byDetected), [inbox.data]);
  const items = filter === 'all' ? all : all.filter((i) => i.status === filter);
  const count = (s: Filter): number => (s === 'all' ? all.length : all.filter((i) => i.status === s).length);
  const selected = items.find((i) => i.id === selectedId) ?? items[0] ?? null;
  // The detail (a whole form) is rendered from a deferred value: when a study arrives or the
  // selection changes, the list updates at once and the detail follows in an interruptible render
  // that React splits into short slices. Mounted in the same synchronous render as the pushed
  // inbox update, it made one long main-thread task (the window bench's "study arrives in the
  // Inbox": test/bench/RESULTS.md, "Window with a 5000-file study").
  const shown = useDeferredValue(selected, null);
  return (
    <Stack gap="md">
      <Title order={2}>{t('inbox.title')}</Title>
      <UnreachableFolders folders={settings?.watch_folders} />
      <ClockSkewNotice />
      <ServiceReachNotice />
      <SkippedCopiesNotice />
      <SegmentedControl
        aria-label={t('inbox.filterLabel')}
        value={filter}
        onChange={(v) => setFilter(v as Filter)}
        data={(['review', 'queued', 'uploaded', 'all'] as const).map((f) => ({
          value: f,
          label: `${t(`inbox.filter.${f}`)} (${count(f)})`,
        }))}
        w="fit-content"
        data-testid="inbox-filter"
      />
      {queued && (
        <Alert
          color="teal"
          variant="light"
          role="status"
          data-testid="upload-queued"
          withCloseButton
          closeButtonLabel={t('common.close')}
          onClose={() => setQueued(null)}
        >
          {t('inbox.queuedNotice', { name: queued })}{' '}
          <Anchor component={Link} to="/uploads" data-testid="see-uploads">
            {t('inbox.seeUploads')}
          </Anchor>
        </Alert>
      )}
      {inbox.isPending && <Loading />}
      <ErrorAlert error={inbox.error} />
      {inbox.data && items.length === 0 && (
        <Text c="dimmed" data-testid="inbox-empty">
          {settings && settings.watch_folders.length === 0 ? t('inbox.emptyNoFolders') : t(`inbox.empty.${filter}`)}
        </Text>
      )}
      {items.length > 0 && (
        <Grid gap="md">
          <Grid.Col span={4}>
            <InboxList
              items={items}
              selectedId={selected?.id ?? null}
              onSelect={setSelectedId}
              height="calc(100vh - 230px)"
            />
          </Grid.Col>
          <Grid.Col span={8}>{shown && <InboxDetail key={shown.id} item={shown} onUploaded={setQueued} />}</Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}
