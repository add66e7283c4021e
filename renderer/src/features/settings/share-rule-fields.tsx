// A source's share rule in Settings: the addresses every ready exam from a watch folder (or from
// the DICOM listener) is e-mailed to, once, and that e-mail's language. Addresses are checked here
// so that staff read the problem in their language; main checks them again (the contract).
import { Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import type { ShareRuleView, WatchFolder } from '../../../../preload/contract';
import { useSettingsCall } from '../../app/queries';
import { useCheckedForm } from '../../components/checked-form';
import { ErrorAlert } from '../../components/error-alert';
import { parseEmails } from '../exams/emails';

const MAX_ADDRESSES = 10;

/** The rule as the form holds it: the addresses as typed, the language ('' is the service's default). */
export type RuleDraft = { to: string; locale: '' | 'es' | 'en' | 'pt' };

export const draftOf = (rule: ShareRuleView | null): RuleDraft => ({
  to: rule?.to.join(', ') ?? '',
  locale: rule?.locale ?? '',
});

/** The draft as the rule to save (null: no one), or the problem to show in the user's language. */
export function ruleOfDraft(draft: RuleDraft, t: TFunction): { rule: ShareRuleView | null } | { problem: string } {
  const { ok, bad } = parseEmails(draft.to);
  if (bad.length > 0) return { problem: t('handout.rule.badEmails', { list: bad.join(', ') }) };
  const unique = ok.filter((a, i) => ok.findIndex((b) => b.toLowerCase() === a.toLowerCase()) === i);
  if (unique.length > MAX_ADDRESSES) return { problem: t('handout.rule.tooMany') };
  if (unique.length === 0) return { rule: null };
  return { rule: { to: unique, locale: draft.locale === '' ? null : draft.locale } };
}

/** The addresses field of a rule: its problem, quoting what was typed, in the user's language. */
export function ruleAddressesSchema(t: TFunction) {
  return z.string().superRefine((to, ctx) => {
    const parsed = ruleOfDraft({ to, locale: '' }, t);
    if ('problem' in parsed) ctx.addIssue({ code: 'custom', message: parsed.problem });
  });
}

/** The addresses and the language, side by side: the input props of the form's two fields. */
export function ShareRuleFields({
  to,
  locale,
  testId,
  size,
}: {
  to: GetInputPropsReturnType;
  locale: GetInputPropsReturnType;
  testId: string;
  size?: 'xs' | 'sm';
}) {
  const { t } = useTranslation();
  return (
    <Group align="flex-start" wrap="nowrap">
      <TextInput
        style={{ flex: 1 }}
        size={size}
        label={t('handout.rule.to')}
        description={t('handout.rule.toHelp')}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        placeholder="dentista@clinica.cl"
        {...to}
        maxLength={3300}
        autoComplete="off"
        spellCheck={false}
        data-testid={`${testId}-to`}
      />
      <NativeSelect
        w={240}
        size={size}
        label={t('handout.rule.locale')}
        {...locale}
        data={[
          { value: '', label: t('handout.rule.localeDefault') },
          ...(['es', 'en', 'pt'] as const).map((l) => ({ value: l, label: t(`exams.share.locales.${l}`) })),
        ]}
        data-testid={`${testId}-locale`}
      />
    </Group>
  );
}

/** A source's rule under its title (the DICOM listener's section saves it with its other fields). */
export function SourceShareRule({
  to,
  locale,
  testId,
}: {
  to: GetInputPropsReturnType;
  locale: GetInputPropsReturnType;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={6} data-testid={`${testId}-rule`}>
      <Text size="sm" fw={600}>
        {t('handout.rule.title')}
      </Text>
      <ShareRuleFields to={to} locale={locale} testId={testId} />
    </Stack>
  );
}

/** A watch folder's rule, in its row: saved with its own button (the row's other fields save at once). */
export function FolderShareRule({ folder }: { folder: WatchFolder }) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState(false);
  const schema = useMemo(() => z.object({ to: ruleAddressesSchema(t) }), [t]);
  // The problem stays until the next Save: it quotes the addresses as they were then.
  const form = useCheckedForm<RuleDraft>(schema, draftOf(folder.share_rule), undefined, {
    clearInputErrorOnChange: false,
    onValuesChange: () => setSaved(false),
  });
  const update = useSettingsCall('folders:update');
  const save = (): void => {
    setSaved(false);
    if (form.validate().hasErrors) return;
    const parsed = ruleOfDraft(form.getValues(), t);
    if ('problem' in parsed) return;
    update.mutate(
      { id: folder.id, share_rule: parsed.rule },
      {
        onSuccess: () => {
          form.setValues(draftOf(parsed.rule));
          setSaved(true);
        },
      },
    );
  };
  return (
    <Stack gap={6} data-testid="folder-share-rule">
      <Text size="sm" fw={600}>
        {t('handout.rule.title')}
      </Text>
      <ShareRuleFields
        to={form.getInputProps('to')}
        locale={form.getInputProps('locale')}
        testId="folder-share"
        size="xs"
      />
      <Group gap="sm">
        <Button size="xs" variant="light" onClick={save} loading={update.isPending} data-testid="folder-share-save">
          {t('handout.rule.save')}
        </Button>
        {saved && (
          <Text size="sm" c="teal.9" role="status">
            {t('handout.rule.saved')}
          </Text>
        )}
      </Group>
      <ErrorAlert error={update.error} />
    </Stack>
  );
}
