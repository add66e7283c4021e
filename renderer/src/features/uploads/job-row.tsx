import { Alert, Badge, Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { UploadJobView } from '../../../../preload/contract';
import { errorTexts } from '../../components/error-texts';
import { ErrorAlert } from '../../components/error-alert';
import { ExamLinks } from '../../components/exam-links';
import { formatBytes, formatDuration, formatRate, formatTime, percent } from '../../components/format';
import { useLanguage } from '../../components/use-language';
import { actionsFor, jobErrorCode, phaseColor } from './job-phase';
import { CompressionStats, compressedProgress, compressingBadge } from './compression-stats';
import { useJobActions } from './upload-queries';
import { RowAction } from '../../components/row-action';

type JobActions = ReturnType<typeof useJobActions>;

type ControlsProps = { job: UploadJobView; can: ReturnType<typeof actionsFor>; actions: JobActions };

function JobControls({ job, can, actions }: ControlsProps) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap">
      {can.pause && (
        <Button
          size="xs"
          variant="default"
          onClick={() => actions.pause.mutate({ id: job.id })}
          loading={actions.pause.isPending}
          data-testid="upload-pause"
        >
          {t('uploads.pause')}
        </Button>
      )}
      {can.resume && (
        <Button
          size="xs"
          onClick={() => actions.resume.mutate({ id: job.id })}
          loading={actions.resume.isPending}
          data-testid="upload-resume"
        >
          {t('uploads.resume')}
        </Button>
      )}
      {can.retry && (
        <Button
          size="xs"
          onClick={() => actions.retry.mutate({ id: job.id })}
          loading={actions.retry.isPending}
          data-testid="upload-retry"
        >
          {t('uploads.retry')}
        </Button>
      )}
      {can.cancel && (
        <RowAction
          label={t('uploads.cancel')}
          onClick={() => actions.cancel.mutate({ id: job.id })}
          loading={actions.cancel.isPending}
          testId="upload-cancel"
        />
      )}
    </Group>
  );
}

/** Where a finished upload can be opened: the exam in this app, and the service's viewer. */
function JobReadyLinks({ job }: { job: UploadJobView }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs">
      <Text size="sm" c="teal.9" fw={600}>
        {t('uploads.readyText')}
      </Text>
      <ExamLinks examId={job.exam_id} viewerUrl={job.viewer_url} />
    </Group>
  );
}

/** One upload: progress, speed, time left, controls, the error in plain words, and the viewer link when ready. */
export function JobRow({ job }: { job: UploadJobView }) {
  const { t, i18n } = useTranslation();
  const lang = useLanguage();
  const actions = useJobActions();
  const can = actionsFor(job);
  const c = job.compression ?? null;
  const value = c ? compressedProgress(job, c) : job.phase === 'ready' ? 100 : percent(job.bytes_sent, job.bytes_total);
  const running = job.phase === 'uploading' && job.rate > 0;
  const actionError = actions.pause.error ?? actions.resume.error ?? actions.cancel.error ?? actions.retry.error;
  const errorCode = job.error ? jobErrorCode(job.error) : null;
  const err = errorCode ? errorTexts(errorCode, i18n.exists.bind(i18n), t) : null;
  // A failure on a network fault is retried by the core on its own: not final, so not shown as one.
  const waiting = job.phase === 'failed' && job.retry_at !== null;
  const final = job.phase === 'failed' && !waiting;
  return (
    <Paper
      withBorder
      p="md"
      data-testid="upload-job"
      data-phase={job.phase}
      data-job-id={job.id}
      aria-label={job.name}
      component="article"
    >
      <Stack gap={8}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={700} truncate data-testid="upload-name">
              {job.name}
            </Text>
            {job.extra_take && (
              <Text size="sm" fw={600} c="indigo.9" truncate data-testid="upload-extra-take">
                {t('takes.uploadLabel', { label: job.extra_take.label, exam: job.extra_take.exam_name })}
              </Text>
            )}
            <Text size="sm" c="dimmed" truncate>
              {[job.patient_name, t(`examType.${job.exam_type}`), t(`uploads.mode.${job.mode}`)]
                .filter(Boolean)
                .join(' · ')}
            </Text>
          </Stack>
          <Badge
            color={waiting ? 'yellow' : phaseColor(job.phase)}
            variant="light"
            size="lg"
            style={{ flexShrink: 0 }}
            data-testid="upload-phase"
          >
            {waiting
              ? t('uploads.waitingRetry')
              : c?.state === 'compressing' && job.phase === 'uploading'
                ? compressingBadge(t, c, lang)
                : t(`uploads.phase.${job.phase}`)}
          </Badge>
        </Group>
        <Progress
          value={value}
          size="lg"
          color={phaseColor(job.phase)}
          // Striped while sending, but not animated: a moving stripe repaints every frame, all day long.
          striped={running}
          aria-label={t('uploads.progressLabel', { name: job.name })}
          data-testid="upload-progress"
          data-value={value}
        />
        <Group justify="space-between" wrap="nowrap">
          {c ? (
            <CompressionStats job={job} c={c} />
          ) : (
            <Text size="sm" data-testid="upload-stats">
              {t('uploads.files', { done: job.files_done, total: job.files_total })} ·{' '}
              {formatBytes(job.bytes_sent, lang)} / {formatBytes(job.bytes_total, lang)} ({value} %)
              {running ? ` · ${formatRate(job.rate, lang)}` : ''}
              {running && job.eta_seconds !== null
                ? ` · ${t('uploads.eta', { time: formatDuration(job.eta_seconds) })}`
                : ''}
            </Text>
          )}
          <JobControls job={job} can={can} actions={actions} />
        </Group>
        {job.phase === 'ready' && <JobReadyLinks job={job} />}
        {job.error && err && job.phase !== 'ready' && (
          <Alert
            color={final ? 'red' : 'yellow'}
            variant="light"
            title={err.title}
            data-testid="upload-error"
            data-error-code={errorCode}
            role={final ? 'alert' : 'status'}
          >
            <Text size="sm">{err.action}</Text>
            {waiting && job.retry_at && (
              <Text size="sm" mt={4} fw={600} data-testid="upload-auto-retry">
                {t('uploads.autoRetryAt', { time: formatTime(job.retry_at, lang) })}
              </Text>
            )}
            <Text size="xs" c="dimmed" mt={4}>
              {t('errors.technical', { code: job.error.net?.code ?? job.error.code })}
            </Text>
          </Alert>
        )}
        <ErrorAlert error={actionError} />
      </Stack>
    </Paper>
  );
}
