import { Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReferrerSaved, ReferrerView } from '../../../../preload/contract';
import { ErrorAlert } from '../../components/error-alert';
import { useCreateReferrer, useUpdateReferrer } from './referrer-queries';
import {
  changedFields,
  checkReferrer,
  emptyReferrer,
  type ReferrerProblems,
  type ReferrerValues,
  valuesOf,
} from './referrer-form';
import { FormButtons } from '../../components/form-buttons';

type Props = {
  /** The referrer to edit, or null to add one. */
  referrer: ReferrerView | null;
  onClose: () => void;
  onSaved: (saved: ReferrerSaved, created: boolean) => void;
};

type FieldsProps = {
  values: ReferrerValues;
  set: (k: keyof ReferrerValues) => (e: React.ChangeEvent<HTMLInputElement>) => void;
  problem: (k: keyof ReferrerValues) => string | undefined;
};

/** The referrer's four fields; checking and the messages for them stay with the dialog. */
function ReferrerFields({ values, set, problem }: FieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <TextInput
        label={t('referrers.fields.name')}
        description={t('referrers.fields.nameHelp')}
        required
        value={values.name}
        onChange={set('name')}
        error={problem('name')}
        maxLength={200}
        data-autofocus
        data-testid="referrer-name"
      />
      <TextInput
        label={t('referrers.fields.email')}
        description={t('referrers.fields.emailHelp')}
        type="email"
        value={values.email}
        onChange={set('email')}
        error={problem('email')}
        spellCheck={false}
        data-testid="referrer-email"
      />
      <Group grow align="flex-start">
        <TextInput
          label={t('referrers.fields.phone')}
          value={values.phone}
          onChange={set('phone')}
          error={problem('phone')}
          type="tel"
          data-testid="referrer-phone"
        />
        <TextInput
          label={t('referrers.fields.specialty')}
          description={t('referrers.fields.specialtyHelp')}
          value={values.specialty}
          onChange={set('specialty')}
          error={problem('specialty')}
          maxLength={200}
          data-testid="referrer-specialty"
        />
      </Group>
    </>
  );
}

/** Add or edit a referrer. The e-mail is checked here before anything is sent; an edit sends only what changed. */
export function ReferrerDialog({ referrer, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const original = referrer ? valuesOf(referrer) : emptyReferrer;
  const [values, setValues] = useState<ReferrerValues>(original);
  const [problems, setProblems] = useState<ReferrerProblems>({});
  const [unchanged, setUnchanged] = useState(false);
  const create = useCreateReferrer((saved) => onSaved(saved, true));
  const update = useUpdateReferrer((saved) => onSaved(saved, false));
  const pending = create.isPending || update.isPending;

  const set =
    (k: keyof ReferrerValues) =>
    (e: React.ChangeEvent<HTMLInputElement>): void => {
      const v = e.currentTarget.value;
      setValues((old) => ({ ...old, [k]: v }));
      setUnchanged(false);
      if (problems[k]) setProblems((old) => ({ ...old, [k]: undefined }));
    };

  const submit = (): void => {
    const found = checkReferrer(values);
    setProblems(found);
    if (Object.values(found).some(Boolean)) return;
    if (!referrer) {
      create.mutate({
        name: values.name.trim(),
        email: values.email.trim(),
        phone: values.phone.trim(),
        specialty: values.specialty.trim(),
      });
      return;
    }
    const changes = changedFields(original, values);
    if (Object.keys(changes).length === 0) return setUnchanged(true);
    update.mutate({ id: referrer.id, changes });
  };

  const problem = (k: keyof ReferrerValues): string | undefined =>
    problems[k] ? t(`referrers.problems.${problems[k]}`) : undefined;
  return (
    <Modal
      opened
      onClose={onClose}
      title={referrer ? t('referrers.editTitle', { name: referrer.name }) : t('referrers.addTitle')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        data-testid="referrer-form"
      >
        <Stack gap="sm">
          <ReferrerFields values={values} set={set} problem={problem} />
          {unchanged && (
            <Text size="sm" role="status" data-testid="referrer-unchanged">
              {t('referrers.nothingChanged')}
            </Text>
          )}
          <ErrorAlert error={create.error ?? update.error} />
          <FormButtons
            submit={referrer ? t('referrers.saveChanges') : t('referrers.add')}
            loading={pending}
            onCancel={onClose}
            testId="referrer-save"
          />
        </Stack>
      </form>
    </Modal>
  );
}
