import { Alert, Button, Group, NumberInput, Paper, Select, Stack, Textarea, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCheckedForm } from '../../components/checked-form';
import { ErrorAlert } from '../../components/error-alert';
import { useExamOutlet } from './exam-layout';
import { useUpdateExam } from './exam-queries';
import { RADIOGRAPH_SUBTYPES } from '../../../../preload/contract/vocabulary';
import { changedFields, editSchema, formOf } from './exam-edit';
import type { Field, Form } from './exam-edit';
import type { ExamView } from '../../../../preload/contract';

/** The editable fields, each showing its own problem; the exam type is read-only. */
function EditFields({
  exam,
  form,
  serviceProblems,
}: {
  exam: ExamView;
  form: UseFormReturnType<Form>;
  serviceProblems: Partial<Record<Field, string>>;
}) {
  const { t } = useTranslation();
  // The form's own problem first, else what the service said about the field.
  const field = (f: Field) => {
    const props = form.getInputProps(f);
    return { ...props, error: (props.error as string | undefined) ?? serviceProblems[f] };
  };
  const { values } = form;
  return (
    <>
      <TextInput label={t('exams.edit.name')} {...field('name')} required maxLength={200} data-testid="edit-name" />
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
          {...field('radiograph_subtype')}
          value={values.radiograph_subtype || null}
          onChange={(v) => form.setFieldValue('radiograph_subtype', v ?? '')}
          allowDeselect={false}
          data-testid="edit-subtype"
        />
      )}
      <Group grow align="flex-start">
        <TextInput label={t('exams.edit.patientName')} {...field('patient_name')} data-testid="edit-patient-name" />
        <TextInput label={t('exams.edit.patientId')} {...field('patient_id')} data-testid="edit-patient-id" />
      </Group>
      <Group grow align="flex-start">
        <TextInput
          label={t('exams.edit.birthDate')}
          description={t('exams.edit.birthDateHelp')}
          placeholder="1980-01-31"
          {...field('birth_date')}
          onChange={(e) => form.setFieldValue('birth_date', e.currentTarget.value.trim())}
          data-testid="edit-birth-date"
        />
        <NumberInput
          label={t('exams.edit.expiration')}
          description={t('exams.edit.expirationHelp')}
          {...field('expiration_days')}
          onChange={(v) => form.setFieldValue('expiration_days', typeof v === 'number' ? v : v === '' ? '' : Number(v))}
          min={1}
          max={3650}
          allowDecimal={false}
          data-testid="edit-expiration"
        />
      </Group>
      <Textarea
        label={t('exams.edit.reason')}
        {...field('reason')}
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
  const [saved, setSaved] = useState(false);
  const form = useCheckedForm<Form>(editSchema, formOf(exam), (code) => `exams.edit.${code}`, {
    onValuesChange: () => setSaved(false),
  });
  const changes = changedFields(exam, form.values);
  const update = useUpdateExam((result) => {
    form.setValues(formOf(result));
    setSaved(true);
  });
  const serviceProblems: Partial<Record<Field, string>> = {};
  for (const d of update.error?.details ?? []) {
    const f = (d.field.split('.').pop() ?? d.field) as Field;
    if (f in form.values) serviceProblems[f] = t('exams.edit.rejected', { detail: d.message });
  }

  const submit = form.onSubmit(() => {
    if (Object.keys(changes).length > 0) update.mutate({ id: exam.id, fields: changes });
  });

  const nothing = Object.keys(changes).length === 0;
  return (
    <Paper withBorder p="md" maw={720} component="form" onSubmit={submit} noValidate data-testid="exam-edit">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('exams.edit.title')}
        </Title>
        <EditFields exam={exam} form={form} serviceProblems={serviceProblems} />
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
