import { Alert, Button, Group, NumberInput, Paper, Select, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/error-alert';
import { useExamOutlet } from './exam-layout';
import { useUpdateExam } from './exam-queries';
import { RADIOGRAPH_SUBTYPES } from '../../../../preload/contract/vocabulary';
import { changedFields, formOf } from './exam-edit';
import type { Field, Form } from './exam-edit';
import type { ExamView } from '../../../../preload/contract';

type Setter = <K extends Field>(k: K, v: Form[K]) => void;

/** The editable fields, each showing its own problem; the exam type is read-only. */
function EditFields({
  exam,
  form,
  set,
  errorOf,
}: {
  exam: ExamView;
  form: Form;
  set: Setter;
  errorOf: (f: Field) => string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextInput
        label={t('exams.edit.name')}
        value={form.name}
        onChange={(e) => set('name', e.currentTarget.value)}
        error={errorOf('name')}
        required
        maxLength={200}
        data-testid="edit-name"
      />
      <TextInput
        label={t('exams.edit.type')}
        value={t(`examType.${exam.exam_type}`, { defaultValue: exam.exam_type })}
        readOnly
        variant="filled"
        data-testid="edit-type"
      />
      {exam.exam_type === 'radiografia' && (
        <Select
          label={t('exams.edit.subtype')}
          data={RADIOGRAPH_SUBTYPES.map((s) => ({ value: s, label: t(`exams.edit.subtypes.${s}`) }))}
          value={form.radiograph_subtype || null}
          onChange={(v) => set('radiograph_subtype', v ?? '')}
          error={errorOf('radiograph_subtype')}
          allowDeselect={false}
          data-testid="edit-subtype"
        />
      )}
      <Group grow align="flex-start">
        <TextInput
          label={t('exams.edit.patientName')}
          value={form.patient_name}
          onChange={(e) => set('patient_name', e.currentTarget.value)}
          error={errorOf('patient_name')}
          data-testid="edit-patient-name"
        />
        <TextInput
          label={t('exams.edit.patientId')}
          value={form.patient_id}
          onChange={(e) => set('patient_id', e.currentTarget.value)}
          error={errorOf('patient_id')}
          data-testid="edit-patient-id"
        />
      </Group>
      <Group grow align="flex-start">
        <TextInput
          label={t('exams.edit.birthDate')}
          description={t('exams.edit.birthDateHelp')}
          placeholder="1980-01-31"
          value={form.birth_date}
          onChange={(e) => set('birth_date', e.currentTarget.value.trim())}
          error={errorOf('birth_date')}
          data-testid="edit-birth-date"
        />
        <NumberInput
          label={t('exams.edit.expiration')}
          description={t('exams.edit.expirationHelp')}
          value={form.expiration_days}
          onChange={(v) => set('expiration_days', typeof v === 'number' ? v : v === '' ? '' : Number(v))}
          min={1}
          max={3650}
          allowDecimal={false}
          error={errorOf('expiration_days')}
          data-testid="edit-expiration"
        />
      </Group>
      <Textarea
        label={t('exams.edit.reason')}
        value={form.reason}
        onChange={(e) => set('reason', e.currentTarget.value)}
        error={errorOf('reason')}
        autosize
        minRows={2}
        maxRows={5}
        data-testid="edit-reason"
      />
    </>
  );
}

/** Edits the exam's fields; the exam type is shown but cannot change; the service's objections land on their fields. */
export function EditPanel() {
  const { t } = useTranslation();
  const { exam } = useExamOutlet();
  const [form, setForm] = useState<Form>(() => formOf(exam));
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const [saved, setSaved] = useState(false);
  const changes = useMemo(() => changedFields(exam, form), [exam, form]);
  const update = useUpdateExam((result) => {
    setForm(formOf(result));
    setSaved(true);
  });
  const set: Setter = (k, v) => {
    setForm((f) => ({ ...f, [k]: v }));
    setSaved(false);
    setProblems((p) => ({ ...p, [k]: undefined }));
  };
  const serviceProblems: Partial<Record<Field, string>> = {};
  for (const d of update.error?.details ?? []) {
    const f = (d.field.split('.').pop() ?? d.field) as Field;
    if (f in form) serviceProblems[f] = t('exams.edit.rejected', { detail: d.message });
  }
  const errorOf = (f: Field): string | undefined => problems[f] ?? serviceProblems[f];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const local: Partial<Record<Field, string>> = {};
    if (form.name.trim() === '') local.name = t('exams.edit.required');
    if (form.birth_date !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(form.birth_date))
      local.birth_date = t('exams.edit.badDate');
    if (
      form.expiration_days !== '' &&
      (!Number.isInteger(form.expiration_days) || form.expiration_days < 1 || form.expiration_days > 3650)
    )
      local.expiration_days = t('exams.edit.badDays');
    setProblems(local);
    if (Object.keys(local).length > 0 || Object.keys(changes).length === 0) return;
    update.mutate({ id: exam.id, fields: changes });
  };

  const nothing = Object.keys(changes).length === 0;
  return (
    <Paper withBorder p="md" maw={720} component="form" onSubmit={submit} noValidate data-testid="exam-edit">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('exams.edit.title')}
        </Title>
        <EditFields exam={exam} form={form} set={set} errorOf={errorOf} />
        {update.error && !update.error.details?.length && <ErrorAlert error={update.error} />}
        {saved && nothing && (
          <Alert color="teal" role="status" data-testid="edit-saved">
            {t('exams.edit.saved')}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending} disabled={nothing} data-testid="edit-save">
            {t('exams.edit.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
