import { Alert, Group, NativeSelect, NumberInput, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FolderExamType, ReceiveSettings, ReceiveView } from '../../../../preload/contract';
import { ErrorAlert } from '../../components/error-alert';
import { folderExamTypeOptions, folderModeOptions, wholeNumber } from './options';
import { ReceiveStatusView } from './receive-status';
import { SaveRow } from './save-row';
import { SourceShareRule, useRuleDraft } from './share-rule-fields';
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

function ReceiveForm({ view }: { view: ReceiveView }) {
  const { t } = useTranslation();
  const s = view.settings;
  const [enabled, setEnabled] = useState(s.enabled);
  const [aet, setAet] = useState(s.ae_title);
  const [port, setPort] = useState<number | string>(s.port);
  const [quiet, setQuiet] = useState<number | string>(s.quiet_seconds);
  const [stopped, setStopped] = useState<number | string>(s.stopped_after_minutes);
  const [allowed, setAllowed] = useState(s.allowed_senders.join('\n'));
  const [examType, setExamType] = useState<FolderExamType>(s.exam_type);
  const [mode, setMode] = useState<ReceiveSettings['mode']>(s.mode);
  const rule = useRuleDraft(s.share_rule);
  const [saved, setSaved] = useState(false);
  const update = useUpdateReceive();
  const save = (): void => {
    setSaved(false);
    const checked = rule.check();
    if (!checked) return;
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
        checked={enabled}
        onChange={(e) => setEnabled(e.currentTarget.checked)}
        label={t('receive.enabled')}
        data-testid="receive-enabled"
      />
      <Group align="flex-start" grow>
        <TextInput
          label={t('receive.aeTitle')}
          description={t('receive.aeTitleHelp')}
          value={aet}
          maxLength={16}
          onChange={(e) => setAet(e.currentTarget.value)}
          data-testid="receive-aet"
        />
        <NumberInput
          label={t('receive.port')}
          description={t('receive.portHelp')}
          value={port}
          onChange={setPort}
          min={1}
          max={65535}
          allowDecimal={false}
          thousandSeparator={false}
          data-testid="receive-port"
        />
        <NumberInput
          label={t('receive.quiet')}
          description={t('receive.quietHelp')}
          value={quiet}
          onChange={setQuiet}
          min={1}
          max={3600}
          allowDecimal={false}
          data-testid="receive-quiet"
        />
      </Group>
      <Group align="flex-start" grow>
        <NativeSelect
          label={t('receive.examType')}
          value={examType}
          data={folderExamTypeOptions(t)}
          onChange={(e) => setExamType(e.currentTarget.value as FolderExamType)}
          data-testid="receive-exam-type"
        />
        <NativeSelect
          label={t('receive.mode')}
          value={mode}
          data={folderModeOptions(t)}
          onChange={(e) => setMode(e.currentTarget.value as ReceiveSettings['mode'])}
          data-testid="receive-mode"
        />
        <NumberInput
          label={t('receive.stoppedAfter')}
          description={t('receive.stoppedAfterHelp')}
          value={stopped}
          onChange={setStopped}
          min={1}
          max={10080}
          allowDecimal={false}
          data-testid="receive-stopped-after"
        />
      </Group>
      <AllowedSenders value={allowed} onChange={setAllowed} />
      <SourceShareRule state={rule} testId="receive-share" />
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

/** Calling AE titles or addresses allowed to send, one per line. */
function AllowedSenders({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation();
  return (
    <Textarea
      label={t('receive.allowed')}
      description={t('receive.allowedHelp')}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      autosize
      minRows={2}
      maxRows={5}
      data-testid="receive-allowed"
    />
  );
}
