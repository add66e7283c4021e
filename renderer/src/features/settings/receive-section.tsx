import { Alert, Group, NativeSelect, NumberInput, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { FolderExamType, ReceiveSettings, ReceiveView } from '../../../../preload/contract';
import { useCheckedForm } from '../../components/checked-form';
import { ErrorAlert } from '../../components/error-alert';
import { folderExamTypeOptions, folderModeOptions, wholeNumber } from './options';
import { ReceiveStatusView } from './receive-status';
import { SaveRow } from './save-row';
import { draftOf, ruleAddressesSchema, ruleOfDraft, type RuleDraft, SourceShareRule } from './share-rule-fields';

import { useReceive, useUpdateReceive } from './settings-queries';
import { SettingsSection } from './settings-section';

/** Allow-list text (one per line, or commas) as entries. */
const entriesOf = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** "Receive from scanners (DICOM)": the listener's settings, what to type into the scanner, and its state. */
export function ReceiveSection() {
  const { t } = useTranslation();
  const view = useReceive();
  return (
    <SettingsSection id="receive" title={t('receive.title')} intro={t('receive.intro')} testId="settings-receive">
      <ErrorAlert error={view.error} />
      {view.data && <ReceiveForm view={view.data} />}
    </SettingsSection>
  );
}

type ReceiveValues = {
  enabled: boolean;
  aet: string;
  port: number | string;
  quiet: number | string;
  stopped: number | string;
  allowed: string;
  examType: FolderExamType;
  mode: ReceiveSettings['mode'];
  share: RuleDraft;
};

const valuesOf = (s: ReceiveSettings): ReceiveValues => ({
  enabled: s.enabled,
  aet: s.ae_title,
  port: s.port,
  quiet: s.quiet_seconds,
  stopped: s.stopped_after_minutes,
  allowed: s.allowed_senders.join('\n'),
  examType: s.exam_type,
  mode: s.mode,
  share: draftOf(s.share_rule),
});

function ReceiveForm({ view }: { view: ReceiveView }) {
  const { t } = useTranslation();
  const s = view.settings;
  // Numbers out of range fall back to the saved ones; only the share rule's addresses can stop a save,
  // and their problem stays until the next Save (it quotes them as they were then).
  const schema = useMemo(() => z.object({ share: z.object({ to: ruleAddressesSchema(t) }) }), [t]);
  const form = useCheckedForm<ReceiveValues>(schema, valuesOf(s), undefined, { clearInputErrorOnChange: false });
  const [saved, setSaved] = useState(false);
  const update = useUpdateReceive();
  const save = (): void => {
    setSaved(false);
    if (form.validate().hasErrors) return;
    const { enabled, aet, port, quiet, stopped, allowed, examType, mode, share } = form.getValues();
    const checked = ruleOfDraft(share, t);
    if ('problem' in checked) return;
    update.mutate(
      {
        enabled,
        ae_title: aet.trim(),
        port: wholeNumber(port, 1, 65535) ?? s.port,
        quiet_seconds: wholeNumber(quiet, 1, 3600) ?? s.quiet_seconds,
        stopped_after_minutes: wholeNumber(stopped, 1, 10080) ?? s.stopped_after_minutes,
        allowed_senders: entriesOf(allowed),
        exam_type: examType,
        mode,
        share_rule: checked.rule,
      },
      { onSuccess: () => setSaved(true) },
    );
  };
  const host = view.addresses[0] ?? t('receive.thisComputer');
  return (
    <Stack gap="md">
      <Switch
        {...form.getInputProps('enabled', { type: 'checkbox' })}
        label={t('receive.enabled')}
        data-testid="receive-enabled"
      />
      <Group align="flex-start" grow>
        <TextInput
          label={t('receive.aeTitle')}
          description={t('receive.aeTitleHelp')}
          {...form.getInputProps('aet')}
          maxLength={16}
          data-testid="receive-aet"
        />
        <NumberInput
          label={t('receive.port')}
          description={t('receive.portHelp')}
          {...form.getInputProps('port')}
          min={1}
          max={65535}
          allowDecimal={false}
          thousandSeparator={false}
          data-testid="receive-port"
        />
        <NumberInput
          label={t('receive.quiet')}
          description={t('receive.quietHelp')}
          {...form.getInputProps('quiet')}
          min={1}
          max={3600}
          allowDecimal={false}
          data-testid="receive-quiet"
        />
      </Group>
      <Group align="flex-start" grow>
        <NativeSelect
          label={t('receive.examType')}
          {...form.getInputProps('examType')}
          data={folderExamTypeOptions(t)}
          data-testid="receive-exam-type"
        />
        <NativeSelect
          label={t('receive.mode')}
          {...form.getInputProps('mode')}
          data={folderModeOptions(t)}
          data-testid="receive-mode"
        />
        <NumberInput
          label={t('receive.stoppedAfter')}
          description={t('receive.stoppedAfterHelp')}
          {...form.getInputProps('stopped')}
          min={1}
          max={10080}
          allowDecimal={false}
          data-testid="receive-stopped-after"
        />
      </Group>
      <AllowedSenders {...form.getInputProps('allowed')} />
      <SourceShareRule
        to={form.getInputProps('share.to')}
        locale={form.getInputProps('share.locale')}
        testId="receive-share"
      />
      <Alert color="blue" variant="light" title={t('receive.hintTitle')} data-testid="receive-hint">
        <Text size="sm">{t('receive.hint', { aet: s.ae_title, port: s.port, host })}</Text>
        <Text size="sm" mt={4}>
          {t('receive.hintEcho')}
        </Text>
      </Alert>
      <ReceiveStatusView status={view.status} port={s.port} />
      <SaveRow onSave={save} pending={update.isPending} saved={saved} error={update.error} testId="receive-save" />
    </Stack>
  );
}

/** Calling AE titles or addresses allowed to send, one per line (the form's input props). */
function AllowedSenders(props: GetInputPropsReturnType) {
  const { t } = useTranslation();
  return (
    <Textarea
      label={t('receive.allowed')}
      description={t('receive.allowedHelp')}
      {...props}
      autosize
      minRows={2}
      maxRows={5}
      data-testid="receive-allowed"
    />
  );
}
