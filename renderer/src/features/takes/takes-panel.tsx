import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Radio,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { z } from 'zod';
import type { InboxItem, TakesView } from '../../../../preload/contract';
import { useAppInfo, useInbox, usePickFolder, useUploads } from '../../app/queries';
import { useCheckedForm } from '../../components/checked-form';
import { ErrorAlert } from '../../components/error-alert';
import { formatBytes } from '../../components/format';
import { useLanguage } from '../../components/use-language';
import { useAddTake, useRefreshTakes, useTakes } from './takes-queries';
import { Loading } from '../../components/loading';

/**
 * Extra takes of one exam: the takes it has, and "Add a take" from a folder or an inbox study.
 * The files go through the upload queue (resumable, shown in Uploads); the list refreshes when
 * the take's upload is ready.
 */
export function TakesPanel() {
  const { examId = '' } = useParams();
  const { t } = useTranslation();
  const exam = useTakes(examId);
  const refresh = useRefreshTakes(examId);
  const uploads = useUploads();
  const jobs = useMemo(
    () => (uploads.data ?? []).filter((j) => j.extra_take?.exam_id === examId),
    [uploads.data, examId],
  );
  const readyJobs = jobs
    .filter((j) => j.phase === 'ready')
    .map((j) => j.id)
    .join(',');
  // A take that finished uploading is now on the service: read the exam again (one call).
  useEffect(() => {
    if (readyJobs) refresh();
  }, [readyJobs, refresh]);

  const [adding, setAdding] = useState(false);
  // Stays after the take is sent, so the link to its progress does not vanish under the pointer.
  const [queued, setQueued] = useState(false);
  const reasonId = useId();

  if (exam.isPending) return <Loading />;
  if (exam.error) return <ErrorAlert error={exam.error} />;
  const view = exam.data;
  const blocked = view.blocked;
  const live = jobs.filter((j) => j.phase !== 'ready' && j.phase !== 'cancelled');

  return (
    <Stack gap="md" data-testid="takes-panel" data-exam-id={view.exam_id}>
      <Stack gap={2}>
        <Title order={2}>{t('takes.title')}</Title>
        <Text data-testid="takes-exam">
          <Text span fw={700}>
            {view.name}
          </Text>
          {[view.patient_name, t(`examType.${view.exam_type}`, { defaultValue: view.exam_type })]
            .filter(Boolean)
            .map((x) => ` · ${x}`)
            .join('')}
        </Text>
        <Text size="sm" c="dimmed">
          {t('takes.intro')}
        </Text>
      </Stack>

      {(view.extra_series.length > 0 || blocked !== 'not_for_type') && <TakesTable view={view} />}

      {(live.length > 0 || queued) && (
        <Alert
          color={live.length > 0 ? 'blue' : 'teal'}
          variant="light"
          title={live.length > 0 ? t('takes.sendingTitle', { count: live.length }) : t('takes.sentTitle')}
          data-testid="takes-sending"
          data-live={live.length}
          role="status"
        >
          <Text size="sm">
            {live.length > 0 ? t('takes.sendingText') : t('takes.sentText')}{' '}
            <Anchor
              component={Link}
              to="/uploads"
              fw={600}
              c="blue.9"
              underline="always"
              data-testid="takes-open-uploads"
            >
              {t('takes.openUploads')}
            </Anchor>
          </Text>
        </Alert>
      )}

      {!adding && (
        <Group gap="sm" align="center">
          <Button
            onClick={() => setAdding(true)}
            disabled={blocked !== null}
            aria-describedby={blocked ? reasonId : undefined}
            data-testid="take-add"
          >
            {t('takes.add')}
          </Button>
          {blocked && (
            <Text id={reasonId} size="sm" c="dark.6" data-testid="take-add-reason" data-reason={blocked}>
              {t(`takes.blocked.${blocked}`, {
                type: t(`examType.${view.exam_type}`, { defaultValue: view.exam_type }),
                max: view.max_extras,
              })}
            </Text>
          )}
        </Group>
      )}
      {adding && blocked === null && (
        <AddTakeForm
          view={view}
          onClose={() => setAdding(false)}
          onQueued={() => {
            setAdding(false);
            setQueued(true);
            refresh();
          }}
        />
      )}
    </Stack>
  );
}

function TakesTable({ view }: { view: TakesView }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  if (view.extra_series.length === 0) {
    return (
      <Text c="dimmed" data-testid="takes-empty">
        {t('takes.none', { max: view.max_extras })}
      </Text>
    );
  }
  return (
    <Paper withBorder p="xs">
      <Table data-testid="takes-list" aria-label={t('takes.listLabel')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('takes.col.index')}</Table.Th>
            <Table.Th>{t('takes.col.label')}</Table.Th>
            <Table.Th>{t('takes.col.files')}</Table.Th>
            <Table.Th>{t('takes.col.size')}</Table.Th>
            <Table.Th>{t('takes.col.status')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {view.extra_series.map((x) => (
            <Table.Tr key={x.index} data-testid="take-row" data-index={x.index} data-status={x.status}>
              <Table.Td>{t('takes.number', { n: x.index + 1 })}</Table.Td>
              <Table.Td>{x.label}</Table.Td>
              <Table.Td>{x.file_count ?? '—'}</Table.Td>
              <Table.Td>{x.storage_bytes ? formatBytes(x.storage_bytes, lang) : '—'}</Table.Td>
              <Table.Td>
                <Badge color={x.status === 'ready' ? 'teal' : 'yellow'} variant="light">
                  {t(`takes.status.${x.status === 'ready' ? 'ready' : 'uploading'}`)}
                </Badge>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

type Source = 'folder' | 'inbox';
type TakeValues = { label: string; source: Source; path: string; inboxId: string | null };

/** A take needs a label and where its files are; the label's message is a key under `takes.`. */
const takeSchema = z
  .object({
    label: z.string().trim().min(1, 'labelRequired').max(100, 'labelRequired'),
    source: z.enum(['folder', 'inbox']),
    path: z.string(),
    inboxId: z.string().nullable(),
  })
  .refine((v) => (v.source === 'folder' ? v.path.trim() !== '' : v.inboxId !== null), 'sourceMissing');

type PickerProps = { waiting: InboxItem[]; value: string | null; onChange: (id: string | null) => void };

/** The inbox studies still waiting for review, named so the right one can be told apart. */
function InboxStudyPicker({ waiting, value, onChange }: PickerProps) {
  const { t } = useTranslation();
  return waiting.length === 0 ? (
    <Text size="sm" c="dimmed" data-testid="take-inbox-empty">
      {t('takes.inboxEmpty')}
    </Text>
  ) : (
    <Select
      label={t('takes.study')}
      placeholder={t('takes.studyPlaceholder')}
      data={waiting.map((i) => ({
        value: i.id,
        label: [i.fields.patient_name || i.fields.name, i.study_date ?? '', t('takes.studyFiles', { count: i.files })]
          .filter(Boolean)
          .join(' · '),
      }))}
      value={value}
      onChange={onChange}
      data-testid="take-inbox"
    />
  );
}

function AddTakeForm({ view, onClose, onQueued }: { view: TakesView; onClose: () => void; onQueued: () => void }) {
  const { t } = useTranslation();
  const info = useAppInfo();
  const desktop = info.data?.transport === 'ipc';
  const inbox = useInbox();
  const waiting = (inbox.data ?? []).filter((i) => i.status === 'review');
  // The label's problem shows as soon as it is typed; Add stays off until the form is complete.
  const form = useCheckedForm<TakeValues>(
    takeSchema,
    {
      label: t('takes.defaultLabel', { n: view.extra_series.length + 2 }),
      source: 'folder',
      path: '',
      inboxId: null,
    },
    (code) => `takes.${code}`,
    { validateInputOnChange: ['label'] },
  );
  const { source } = form.values;
  const pick = usePickFolder();
  const add = useAddTake(onQueued);
  // The form opens from a button: the caret goes where the first thing to write is.
  const labelRef = useRef<HTMLInputElement>(null);
  useEffect(() => labelRef.current?.focus(), []);
  const complete = form.isValid();

  const submit = form.onSubmit(({ label, path, inboxId }) =>
    add.mutate({
      exam_id: view.exam_id,
      label: label.trim(),
      source: source === 'folder' ? { kind: 'folder', path: path.trim() } : { kind: 'inbox', inbox_id: inboxId ?? '' },
    }),
  );

  return (
    <Paper
      withBorder
      p="md"
      component="form"
      onSubmit={submit}
      aria-label={t('takes.formLabel')}
      data-testid="take-form"
    >
      <Stack gap="sm">
        <Title order={3}>{t('takes.formTitle')}</Title>
        <TextInput
          label={t('takes.label')}
          description={t('takes.labelHelp')}
          {...form.getInputProps('label')}
          maxLength={100}
          required
          data-testid="take-label"
          ref={labelRef}
        />
        <Radio.Group
          label={t('takes.source')}
          value={source}
          onChange={(v) => form.setFieldValue('source', v === 'inbox' ? 'inbox' : 'folder')}
        >
          <Group mt={6}>
            <Radio value="folder" label={t('takes.fromFolder')} data-testid="take-source-folder" />
            <Radio
              value="inbox"
              label={t('takes.fromInbox', { count: waiting.length })}
              data-testid="take-source-inbox"
            />
          </Group>
        </Radio.Group>
        {source === 'folder' && (
          <Group align="flex-end" gap="sm" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              label={t('takes.folder')}
              description={desktop ? t('takes.folderHelpDesktop') : t('takes.folderHelpBrowser')}
              placeholder={t('takes.folderPlaceholder')}
              {...form.getInputProps('path')}
              data-testid="take-path"
            />
            {desktop && (
              <Button
                variant="default"
                loading={pick.isPending}
                onClick={() => pick.mutate({}, { onSuccess: (r) => r.path && form.setFieldValue('path', r.path) })}
                data-testid="take-pick"
              >
                {t('takes.pick')}
              </Button>
            )}
          </Group>
        )}
        {source === 'inbox' && (
          <InboxStudyPicker
            waiting={waiting}
            value={form.values.inboxId}
            onChange={(id) => form.setFieldValue('inboxId', id)}
          />
        )}
        <ErrorAlert error={add.error ?? pick.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={add.isPending} disabled={!complete} data-testid="take-submit">
            {t('takes.submit')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
