// "Send the exam to": the study's referring dentist picked from the directory (or addresses typed),
// and the language of that e-mail. Once the exam is ready, ScanBridge e-mails it once (share-on-ready).
import { Grid, NativeSelect, Select, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { parseEmails } from '../exams/emails';
import { useReferrers } from '../exams/exam-queries';
import type { FormState } from './inbox-form';

export function ShareFields({ form, editable }: { form: UseFormReturnType<FormState>; editable: boolean }) {
  const { t } = useTranslation();
  const referrers = (useReferrers().data?.referrers ?? []).filter((r) => r.email);
  const pick = (id: string | null) => {
    const email = referrers.find((r) => r.id === id)?.email;
    if (!email) return;
    const current = parseEmails(form.getValues().share_to).ok;
    if (!current.some((a) => a.toLowerCase() === email.toLowerCase()))
      form.setFieldValue('share_to', [...current, email].join(', '));
  };
  return (
    <Grid gap="sm" data-testid="inbox-share">
      <Grid.Col span={12}>
        <Text fw={600} size="sm">
          {t('inbox.share.title')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('inbox.share.help')}
        </Text>
      </Grid.Col>
      <Grid.Col span={4}>
        <Select
          label={t('inbox.share.referrer')}
          placeholder={referrers.length ? t('inbox.share.referrerPlaceholder') : t('inbox.share.noReferrers')}
          data={referrers.map((r) => ({ value: r.id, label: `${r.name} — ${r.email ?? ''}` }))}
          value={null}
          onChange={pick}
          disabled={!editable || referrers.length === 0}
          searchable
          nothingFoundMessage={t('inbox.share.noReferrers')}
          data-testid="field-share-referrer"
        />
      </Grid.Col>
      <Grid.Col span={5}>
        <TextInput
          label={t('inbox.share.to')}
          description={t('inbox.share.toHelp')}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          {...form.getInputProps('share_to')}
          maxLength={3300}
          readOnly={!editable}
          autoComplete="off"
          data-testid="field-share-to"
        />
      </Grid.Col>
      <Grid.Col span={3}>
        <NativeSelect
          label={t('inbox.share.locale')}
          {...form.getInputProps('share_locale')}
          data={(['es', 'en', 'pt'] as const).map((l) => ({ value: l, label: t(`exams.share.locales.${l}`) }))}
          disabled={!editable}
          data-testid="field-share-locale"
        />
      </Grid.Col>
    </Grid>
  );
}
