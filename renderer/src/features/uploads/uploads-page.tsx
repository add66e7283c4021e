import { Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useUploads } from '../../app/queries';
import { ErrorAlert } from '../../components/error-alert';
import { JobRow } from './job-row';
import { FINISHED, sortJobs } from './job-phase';
import { useClearFinished } from './upload-queries';

/** Every upload job, running ones first; virtualised so a long history stays smooth. */
export function UploadsPage() {
  const { t } = useTranslation();
  const uploads = useUploads();
  const jobs = useMemo(() => sortJobs(uploads.data ?? []), [uploads.data]);
  const clear = useClearFinished();
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: jobs.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 150,
    overscan: 4,
    getItemKey: (i) => jobs[i]?.id ?? i,
  });
  const finished = jobs.filter((j) => FINISHED.has(j.phase)).length;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{t('uploads.title')}</Title>
        <Button
          variant="default"
          onClick={() => clear.mutate({})}
          disabled={finished === 0}
          loading={clear.isPending}
          data-testid="uploads-clear"
        >
          {t('uploads.clearFinished', { count: finished })}
        </Button>
      </Group>
      {uploads.isPending && <Loader aria-label={t('common.loading')} />}
      <ErrorAlert error={uploads.error ?? clear.error} />
      {uploads.data && jobs.length === 0 && (
        <Text c="dimmed" data-testid="uploads-empty">
          {t('uploads.empty')}
        </Text>
      )}
      {jobs.length > 0 && (
        <div
          ref={scrollRef}
          style={{ height: 'calc(100vh - 170px)', overflowY: 'auto' }}
          data-testid="uploads-list"
          role="region"
          aria-label={t('uploads.listLabel')}
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((row) => {
              const job = jobs[row.index];
              if (!job) return null;
              return (
                <div
                  key={row.key}
                  data-index={row.index}
                  ref={virtualizer.measureElement}
                  style={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    right: 0,
                    transform: `translateY(${row.start}px)`,
                    paddingBottom: 10,
                    paddingRight: 4,
                  }}
                >
                  <JobRow job={job} />
                </div>
              );
            })}
          </div>
        </div>
      )}
    </Stack>
  );
}
