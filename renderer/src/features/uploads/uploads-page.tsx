import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useUploads } from '../../app/queries';
import { ErrorAlert } from '../../components/error-alert';
import { JobRow } from './job-row';
import { FINISHED, sortJobs } from './job-phase';
import { useClearFinished } from './upload-queries';
import { VirtualList } from '../../components/virtual-list';
import { Loading } from '../../components/loading';

/** Every upload job, running ones first; virtualised so a long history stays smooth. */
export function UploadsPage() {
  const { t } = useTranslation();
  const uploads = useUploads();
  const jobs = useMemo(() => sortJobs(uploads.data ?? []), [uploads.data]);
  const clear = useClearFinished();
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
      {uploads.isPending && <Loading />}
      <ErrorAlert error={uploads.error ?? clear.error} />
      {uploads.data && jobs.length === 0 && (
        <Text c="dimmed" data-testid="uploads-empty">
          {t('uploads.empty')}
        </Text>
      )}
      {jobs.length > 0 && (
        <VirtualList
          items={jobs}
          keyOf={(job) => job.id}
          rowHeight={150}
          measure
          overscan={4}
          height="calc(100vh - 170px)"
          box={{ testId: 'uploads-list', role: 'region', label: t('uploads.listLabel') }}
          rowStyle={{ paddingBottom: 10, paddingRight: 4 }}
        >
          {(job) => <JobRow job={job} />}
        </VirtualList>
      )}
    </Stack>
  );
}
