import { Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReferrerSaved, ReferrerView } from '../../../../preload/contract';
import { useCheckedForm } from '../../components/checked-form';
import { ErrorAlert } from '../../components/error-alert';
import { useCreateReferrer, useUpdateReferrer } from './referrer-queries';
import { FormButtons } from '../../components/form-buttons';
import { changedFields, emptyReferrer, referrerSchema, type ReferrerValues, valuesOf } from './referrer-form';

type Props = {
  /** The referrer to edit, or null to add one. */
  referrer: ReferrerView | null;
  onClose: () => void;
  onSaved: (saved: ReferrerSaved, created: boolean) => void;
};

/** The referrer's four fields; checking and the messages for them stay with the dialog's form. */
function ReferrerFields({ form }: { form: UseFormReturnType<ReferrerValues> }) {
  const { t } = useTranslation();
  return (
    <>
      <TextInput
        label={t('referrers.fields.name')}
        description={t('referrers.fields.nameHelp')}
        required
        {...form.getInputProps('name')}
        maxLength={200}
        data-autofocus
        data-testid="referrer-name"
      />
      <TextInput
        label={t('referrers.fields.email')}
        description={t('referrers.fields.emailHelp')}
        type="email"
        {...form.getInputProps('email')}
        spellCheck={false}
        data-testid="referrer-email"
      />
      <Group grow align="flex-start">
        <TextInput
          label={t('referrers.fields.phone')}
          {...form.getInputProps('phone')}
          type="tel"
          data-testid="referrer-phone"
        />
        <TextInput
          label={t('referrers.fields.specialty')}
          description={t('referrers.fields.specialtyHelp')}
          {...form.getInputProps('specialty')}
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
  const form = useCheckedForm(referrerSchema, original, (code) => `referrers.problems.${code}`);
  const [unchanged, setUnchanged] = useState(false);
  const create = useCreateReferrer((saved) => onSaved(saved, true));
  const update = useUpdateReferrer((saved) => onSaved(saved, false));
  const pending = create.isPending || update.isPending;

  const submit = (values: ReferrerValues): void => {
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
        onSubmit={form.onSubmit(submit)}
        onChange={() => setUnchanged(false)}
        data-testid="referrer-form"
      >
        <Stack gap="sm">
          <ReferrerFields form={form} />
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
