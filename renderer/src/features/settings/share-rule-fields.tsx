// A source's share rule in Settings: the addresses every ready exam from a watch folder (or from
// the DICOM listener) is e-mailed to, once, and that e-mail's language. Addresses are checked here
// so that staff read the problem in their language; main checks them again (the contract).
import { Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { ShareRuleView, WatchFolder } from '../../../../preload/contract';
import { keys, useCall } from '../../app/queries';
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

/** The addresses and the language, side by side. */
export function ShareRuleFields({
  draft,
  onChange,
  problem,
  testId,
  size,
}: {
  draft: RuleDraft;
  onChange: (d: RuleDraft) => void;
  problem: string | null;
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
        value={draft.to}
        onChange={(e) => onChange({ ...draft, to: e.currentTarget.value })}
        error={problem}
        maxLength={3300}
        autoComplete="off"
        spellCheck={false}
        data-testid={`${testId}-to`}
      />
      <NativeSelect
        w={240}
        size={size}
        label={t('handout.rule.locale')}
        value={draft.locale}
        data={[
          { value: '', label: t('handout.rule.localeDefault') },
          ...(['es', 'en', 'pt'] as const).map((l) => ({ value: l, label: t(`exams.share.locales.${l}`) })),
        ]}
        onChange={(e) => onChange({ ...draft, locale: e.currentTarget.value as RuleDraft['locale'] })}
        data-testid={`${testId}-locale`}
      />
    </Group>
  );
}

/** A rule being edited: the draft, the problem shown, and `check()` giving the rule to save (undefined when not valid). */
export function useRuleDraft(initial: ShareRuleView | null) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<RuleDraft>(() => draftOf(initial));
  const [problem, setProblem] = useState<string | null>(null);
  const check = (): { rule: ShareRuleView | null } | undefined => {
    const parsed = ruleOfDraft(draft, t);
    setProblem('problem' in parsed ? parsed.problem : null);
    return 'problem' in parsed ? undefined : parsed;
  };
  return { draft, setDraft, problem, check };
}

/** A source's rule under its title (the DICOM listener's section saves it with its other fields). */
export function SourceShareRule({ state, testId }: { state: ReturnType<typeof useRuleDraft>; testId: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={6} data-testid={`${testId}-rule`}>
      <Text size="sm" fw={600}>
        {t('handout.rule.title')}
      </Text>
      <ShareRuleFields draft={state.draft} onChange={state.setDraft} problem={state.problem} testId={testId} />
    </Stack>
  );
}

/** A watch folder's rule, in its row: saved with its own button (the row's other fields save at once). */
export function FolderShareRule({ folder }: { folder: WatchFolder }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<RuleDraft>(() => draftOf(folder.share_rule));
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const update = useCall({ name: 'folders:update' }, (s, qc) => qc.setQueryData(keys.settings, s));
  const save = (): void => {
    setSaved(false);
    const parsed = ruleOfDraft(draft, t);
    if ('problem' in parsed) return setProblem(parsed.problem);
    setProblem(null);
    update.mutate(
      { id: folder.id, share_rule: parsed.rule },
      {
        onSuccess: () => {
          setDraft(draftOf(parsed.rule));
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
        draft={draft}
        onChange={(d) => {
          setDraft(d);
          setSaved(false);
        }}
        problem={problem}
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
