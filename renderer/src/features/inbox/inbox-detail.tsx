import {
  Anchor,
  Badge,
  Button,
  Grid,
  Group,
  NativeSelect,
  NumberInput,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { InboxItem, UploadJobView } from '../../../../preload/contract';
import { useUploads } from '../../app/queries';
import { useCheckedForm } from '../../components/checked-form';
import { ErrorAlert } from '../../components/error-alert';
import { ExamLinks } from '../../components/exam-links';
import { formatBytes, formatDate } from '../../components/format';
import { useLanguage } from '../../components/use-language';
import { examTypeOptions } from '../settings/options';
import type { FormState } from './inbox-form';
import { changedFields, inboxSchema, isCalendarDate, toForm } from './inbox-form';
import { IncompleteFiles } from './incomplete-files';
import { SeriesList } from './series-list';
import { ShareFields } from './share-fields';
import { statusColor, studyFacts } from './status';
import { ReceivedFrom, SenderStopped } from './received-from';
import { StudyWarnings } from './warnings';
import { useDismissStudy, useUpdateStudy, useUploadStudy } from './inbox-queries';

/** The study's title, its date, modality, size and export folder, and its status. */
function StudyHeading({ item }: { item: InboxItem }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  return (
    <Group justify="space-between" wrap="nowrap" align="flex-start">
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Title order={3} id="inbox-detail-title">
          {item.description || t('inbox.untitledStudy')}
        </Title>
        <Text size="sm" c="dimmed">
          {studyFacts(item, t, lang)}
        </Text>
        {item.received_from ? (
          <ReceivedFrom from={item.received_from} />
        ) : (
          <Text size="xs" c="dimmed" ff="monospace" truncate="start" title={item.export_path}>
            <bdi dir="ltr">{item.export_path}</bdi>
          </Text>
        )}
      </Stack>
      <Badge color={statusColor(item.status)} variant="light" size="lg" data-testid="inbox-status">
        {t(`inbox.status.${item.status}`)}
      </Badge>
    </Group>
  );
}

/** The prefilled fields, editable while the study waits for review. */
function StudyFields({ form, editable }: { form: UseFormReturnType<FormState>; editable: boolean }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { values } = form;
  return (
    <Grid gap="sm">
      <Grid.Col span={8}>
        <TextInput
          label={t('inbox.fields.name')}
          {...form.getInputProps('name')}
          required
          maxLength={200}
          readOnly={!editable}
          data-testid="field-name"
        />
      </Grid.Col>
      <Grid.Col span={4}>
        <NativeSelect
          label={t('inbox.fields.examType')}
          {...form.getInputProps('exam_type')}
          data={examTypeOptions(t)}
          disabled={!editable}
          data-testid="field-exam-type"
        />
      </Grid.Col>
      <Grid.Col span={5}>
        <TextInput
          label={t('inbox.fields.patientName')}
          {...form.getInputProps('patient_name')}
          maxLength={200}
          readOnly={!editable}
          data-testid="field-patient-name"
        />
      </Grid.Col>
      <Grid.Col span={3}>
        <TextInput
          label={t('inbox.fields.patientId')}
          {...form.getInputProps('patient_id')}
          maxLength={64}
          readOnly={!editable}
          data-testid="field-patient-id"
        />
      </Grid.Col>
      <Grid.Col span={4}>
        <TextInput
          label={t('inbox.fields.birthDate')}
          description={
            isCalendarDate(values.birth_date) ? formatDate(values.birth_date, lang) : t('inbox.fields.birthDateHelp')
          }
          placeholder={t('inbox.fields.birthDatePlaceholder')}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          {...form.getInputProps('birth_date')}
          onChange={(e) => form.setFieldValue('birth_date', e.currentTarget.value.trim())}
          inputMode="numeric"
          maxLength={10}
          readOnly={!editable}
          data-testid="field-birth-date"
        />
      </Grid.Col>
      <Grid.Col span={8}>
        <Textarea
          label={t('inbox.fields.reason')}
          {...form.getInputProps('reason')}
          autosize
          minRows={1}
          maxRows={4}
          maxLength={2000}
          readOnly={!editable}
          data-testid="field-reason"
        />
      </Grid.Col>
      <Grid.Col span={4}>
        <NumberInput
          label={t('inbox.fields.expiration')}
          {...form.getInputProps('expiration_days')}
          min={1}
          max={3650}
          allowDecimal={false}
          placeholder={t('settings.general.never')}
          readOnly={!editable}
          data-testid="field-expiration"
        />
      </Grid.Col>
    </Grid>
  );
}

/** The study's series, each one included in the upload or left out. */
function SeriesSection({
  item,
  disabled,
  onToggle,
}: {
  item: InboxItem;
  disabled: boolean;
  onToggle: (uid: string, include: boolean) => void;
}) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const included = item.series.filter((s) => !s.excluded);
  const includedFiles = included.reduce((n, s) => n + s.files, 0);
  const includedBytes = included.reduce((n, s) => n + s.bytes, 0);
  return (
    <Stack gap={6}>
      <Group justify="space-between">
        <Text fw={600} size="sm">
          {t('inbox.series')}
        </Text>
        <Text size="sm" c="dimmed" data-testid="series-summary">
          {t('inbox.seriesSummary', {
            included: included.length,
            total: item.series.length,
            files: includedFiles,
            size: formatBytes(includedBytes, lang),
          })}
        </Text>
      </Group>
      <SeriesList series={item.series} disabled={disabled} onToggle={onToggle} />
    </Stack>
  );
}

/** Where a study already sent went: the upload queue, and the exam and its viewer once ready. */
function SentLinks({ item, job }: { item: InboxItem; job: UploadJobView | undefined }) {
  const { t } = useTranslation();
  return (
    <Group gap="md">
      <Text size="sm">
        {item.status === 'queued' ? t('inbox.alreadyQueued') : t('inbox.alreadyUploaded')}{' '}
        <Anchor component={Link} to="/uploads">
          {item.status === 'queued' ? t('inbox.seeUploads') : t('inbox.seeInUploads')}
        </Anchor>
      </Text>
      <ExamLinks
        examId={job?.phase === 'ready' ? job.exam_id : null}
        viewerUrl={job?.viewer_url}
        testIdPrefix="inbox-"
      />
    </Group>
  );
}

/** Dismiss, save the corrections, or upload the study as reviewed. */
function ReviewActions({
  onDismiss,
  dismissing,
  canSave,
  saving,
  onSave,
  uploading,
  canUpload,
}: {
  onDismiss: () => void;
  dismissing: boolean;
  canSave: boolean;
  saving: boolean;
  onSave: () => void;
  uploading: boolean;
  canUpload: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" className="sticky-actions">
      <Button variant="subtle" color="gray" onClick={onDismiss} loading={dismissing} data-testid="inbox-dismiss">
        {t('inbox.dismiss')}
      </Button>
      <Group>
        <Button variant="default" disabled={!canSave} loading={saving} onClick={onSave} data-testid="inbox-save">
          {t('inbox.saveChanges')}
        </Button>
        <Button type="submit" loading={uploading} disabled={!canUpload} data-testid="inbox-upload">
          {t('inbox.upload')}
        </Button>
      </Group>
    </Group>
  );
}

/** One detected study: its prefilled fields to check and correct, its series, and Upload. */
export function InboxDetail({ item, onUploaded }: { item: InboxItem; onUploaded: (name: string) => void }) {
  // No error shows before the first Save or Upload; from then on they follow what is typed.
  const form = useCheckedForm<FormState>(inboxSchema, toForm(item.fields), (code) => `inbox.problems.${code}`, {
    recheckAfterSubmit: true,
  });
  const editable = item.status === 'review';
  const job = useUploads().data?.find((j) => j.id === item.job_id);
  const update = useUpdateStudy();
  const toggleSeries = useUpdateStudy();
  const upload = useUploadStudy();
  const dismiss = useDismissStudy();

  const changes = changedFields(form.values, item.fields);
  const dirty = Object.keys(changes).length > 0;
  const includedCount = item.series.filter((s) => !s.excluded).length;

  const save = async (): Promise<boolean> => {
    if (form.validate().hasErrors) return false;
    if (!dirty) return true;
    await update.mutateAsync({ id: item.id, fields: changes });
    return true;
  };
  const incomplete = item.incomplete ?? [];
  const onUpload = async (allowIncomplete = false): Promise<void> => {
    // A study with files that cannot be read whole goes only through the confirmation below.
    if (incomplete.length > 0 && !allowIncomplete) return;
    upload.reset();
    try {
      if (!(await save())) return;
      await upload.mutateAsync(allowIncomplete ? { id: item.id, allow_incomplete: true } : { id: item.id });
      onUploaded(form.getValues().name.trim());
    } catch {
      // Shown by the mutations' error alerts.
    }
  };

  return (
    <Paper withBorder p="lg" data-testid="inbox-detail" data-item-id={item.id}>
      <form
        noValidate
        aria-labelledby="inbox-detail-title"
        onSubmit={(e) => {
          e.preventDefault();
          void onUpload();
        }}
      >
        <Stack gap="md">
          <StudyHeading item={item} />

          {editable && incomplete.length > 0 && (
            <IncompleteFiles files={incomplete} pending={upload.isPending} onUploadAnyway={() => onUpload(true)} />
          )}
          {editable && <SenderStopped from={item.received_from} />}
          {editable && <StudyWarnings warnings={item.warnings} />}

          <StudyFields form={form} editable={editable} />
          <ShareFields form={form} editable={editable} />

          <SeriesSection
            item={item}
            disabled={!editable || toggleSeries.isPending}
            onToggle={(uid, include) => {
              const excluded = new Set(item.series.filter((s) => s.excluded).map((s) => s.series_uid));
              if (include) excluded.delete(uid);
              else excluded.add(uid);
              toggleSeries.mutate({ id: item.id, excluded_series: [...excluded] });
            }}
          />

          <ErrorAlert error={update.error ?? toggleSeries.error} />
          <ErrorAlert error={upload.error} />
          <ErrorAlert error={dismiss.error} />
          {editable ? (
            <ReviewActions
              onDismiss={() => dismiss.mutate({ id: item.id })}
              dismissing={dismiss.isPending}
              canSave={dirty}
              saving={update.isPending && !upload.isPending}
              onSave={() => void save().catch(() => undefined)}
              uploading={upload.isPending}
              canUpload={includedCount > 0 && incomplete.length === 0}
            />
          ) : (
            <SentLinks item={item} job={job} />
          )}
        </Stack>
      </form>
    </Paper>
  );
}
