import { Alert, Anchor, Button, Group, Image, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { ExamView } from '../../../../preload/contract';
import { ErrorAlert } from '../../components/error-alert';
import { formatBytes, formatDate, formatNumber } from '../../components/format';
import { useLanguage } from '../../components/use-language';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ExamStatusBadge, formatDateTime } from './exam-badges';
import { useExamOutlet } from './exam-layout';
import { useDeleteExam, usePatientExams, useThumbnail, useShareOnReady } from './exam-queries';
import { Loading } from '../../components/loading';

function Thumbnail({ exam }: { exam: ExamView }) {
  const { t } = useTranslation();
  const thumb = useThumbnail(exam.id);
  return (
    <Paper
      withBorder
      p="sm"
      h={260}
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      data-testid="exam-thumbnail"
      data-state={thumb.data ? (thumb.data.ready ? 'ready' : 'not-ready') : thumb.error ? 'error' : 'loading'}
    >
      {thumb.isPending && <Loading />}
      {thumb.data?.ready && (
        <Image
          src={`data:${thumb.data.content_type};base64,${thumb.data.base64}`}
          alt={t('exams.overview.thumbnail', { name: exam.name })}
          fit="contain"
          mah={240}
        />
      )}
      {thumb.data && !thumb.data.ready && (
        <Text size="sm" ta="center" c="gray.8" role="status">
          {t('exams.overview.thumbnailNotReady')}
        </Text>
      )}
      {thumb.error && (
        <Text size="sm" c="red.9">
          {t('exams.overview.thumbnailError')}
        </Text>
      )}
    </Paper>
  );
}

function OtherExams({ exam }: { exam: ExamView }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const others = usePatientExams(exam.id);
  return (
    <Paper withBorder p="md" data-testid="patient-exams">
      <Title order={3} size="h5" mb="xs">
        {t('exams.overview.otherExams')}
      </Title>
      {others.isPending && <Loading size="sm" />}
      <ErrorAlert error={others.error} />
      {others.data && others.data.exams.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('exams.overview.noOtherExams')}
        </Text>
      )}
      {others.data && others.data.exams.length > 0 && (
        <List spacing={4} size="sm">
          {others.data.exams.map((o) => (
            <List.Item key={o.id}>
              <Anchor component={Link} to={`/exams/${encodeURIComponent(o.id)}`} data-testid="patient-exam-link">
                {o.name ?? o.id}
              </Anchor>
              <Text span size="sm" c="dimmed">
                {' · '}
                {o.exam_type ? t(`examType.${o.exam_type}`, { defaultValue: o.exam_type }) : ''}
                {o.created_at ? ` · ${formatDateTime(o.created_at, lang)}` : ''}
              </Text>
            </List.Item>
          ))}
        </List>
      )}
    </Paper>
  );
}

/** The exam's index section: preview, every detail the service gives, the patient's other exams, and Delete. */
export function OverviewPanel() {
  const { t, i18n } = useTranslation();
  const lang = useLanguage();
  const { exam } = useExamOutlet();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteExam(
    exam.id,
    (result) => void navigate('/exams', { state: { deleted: exam.name, already: result.already_deleted } }),
  );
  const autoShare = useShareOnReady(exam.id);
  const none = t('exams.overview.none');
  const facts: [string, ReactNode, string][] = [
    [t('exams.overview.name'), exam.name, 'name'],
    [
      t('exams.overview.type'),
      i18n.exists(`examType.${exam.exam_type}`) ? t(`examType.${exam.exam_type}`) : exam.exam_type,
      'type',
    ],
    ...(exam.exam_type === 'radiografia'
      ? [
          [
            t('exams.overview.subtype'),
            exam.radiograph_subtype
              ? t(`exams.edit.subtypes.${exam.radiograph_subtype}`, { defaultValue: exam.radiograph_subtype })
              : none,
            'subtype',
          ] as [string, ReactNode, string],
        ]
      : []),
    [t('exams.overview.patientName'), exam.patient_name || none, 'patient-name'],
    [t('exams.overview.patientId'), exam.patient_id || none, 'patient-id'],
    [t('exams.overview.birthDate'), exam.birth_date ? formatDate(exam.birth_date, lang) : none, 'birth-date'],
    [t('exams.overview.reason'), exam.reason || none, 'reason'],
    [t('exams.overview.statusLabel'), <ExamStatusBadge key="s" status={exam.status} />, 'status'],
    [
      t('exams.overview.storage'),
      exam.storage_bytes !== null ? formatBytes(exam.storage_bytes, lang) : none,
      'storage',
    ],
    [t('exams.overview.files'), exam.file_count !== null ? formatNumber(exam.file_count, lang) : none, 'files'],
    [t('exams.overview.extraSeries'), formatNumber(exam.extra_series, lang), 'extra-series'],
    [t('exams.overview.views'), formatNumber(exam.counters?.views ?? 0, lang), 'views'],
    [t('exams.overview.shares'), formatNumber(exam.counters?.shares ?? 0, lang), 'shares'],
    [t('exams.overview.downloads'), formatNumber(exam.counters?.downloads ?? 0, lang), 'downloads'],
    [t('exams.overview.created'), exam.created_at ? formatDateTime(exam.created_at, lang) : none, 'created'],
    [
      t('exams.overview.expires'),
      exam.expires_at
        ? formatDateTime(exam.expires_at, lang)
        : exam.expiration_days === null
          ? t('exams.overview.never')
          : none,
      'expires',
    ],
  ];
  if (autoShare.data) {
    const s = autoShare.data;
    const vars = { to: s.to.join(', '), date: formatDateTime(s.at, lang) };
    facts.push([t('exams.overview.autoShare'), t(`exams.overview.autoShareState.${s.state}`, vars), 'auto-share']);
  }
  const patient = exam.patient_name || t('exams.overview.deleteNoPatient');
  return (
    <Group align="flex-start" wrap="nowrap" gap="lg">
      <div style={{ flex: 5, minWidth: 0 }}>
        <Stack>
          <Thumbnail exam={exam} />
          <OtherExams exam={exam} />
        </Stack>
      </div>
      <div style={{ flex: 7, minWidth: 0 }}>
        <Paper withBorder p="md">
          <Title order={3} size="h5" mb="sm">
            {t('exams.overview.details')}
          </Title>
          <dl className="facts" data-testid="exam-facts">
            {facts.map(([label, value, id]) => (
              <div key={id} style={{ display: 'contents' }}>
                <dt>{label}</dt>
                <dd data-testid={`fact-${id}`}>{value}</dd>
              </div>
            ))}
          </dl>
        </Paper>
        <Group mt="md" justify="flex-end">
          <Button color="red.9" variant="outline" onClick={() => setConfirming(true)} data-testid="exam-delete">
            {t('exams.overview.delete')}
          </Button>
        </Group>
        {remove.error && remove.error.code !== 'not_found' && <ErrorAlert error={remove.error} />}
        {remove.error?.code === 'not_found' && <Alert color="gray">{t('exams.overview.alreadyDeleted')}</Alert>}
      </div>
      <ConfirmDialog
        opened={confirming}
        title={t('exams.overview.deleteTitle')}
        body={t('exams.overview.deleteBody', { name: exam.name, patient })}
        confirm={t('exams.overview.deleteConfirm')}
        danger
        loading={remove.isPending}
        onConfirm={() => remove.mutate({ id: exam.id })}
        onClose={() => setConfirming(false)}
        testId="exam-delete-modal"
      />
    </Group>
  );
}
