import { Button, Group, NativeSelect, NumberInput, Paper, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FolderExamType, Settings, WatchFolder } from '../../../../preload/contract';
import { usePickFolder, useSettingsCall } from '../../app/queries';
import { useTransport } from '../../app/transport-context';
import { ErrorAlert } from '../../components/error-alert';
import { folderExamTypeOptions, folderModeOptions, wholeNumber } from './options';
import { FolderShareRule } from './share-rule-fields';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { RowAction } from '../../components/row-action';
import { SettingsSection } from './settings-section';

const DEFAULT_SETTLE = 30;

function FolderRow({ folder }: { folder: WatchFolder }) {
  const { t } = useTranslation();
  const [settle, setSettle] = useState<number | string>(folder.settle_seconds);
  const [confirming, setConfirming] = useState(false);
  const update = useSettingsCall('folders:update');
  const remove = useSettingsCall('folders:remove');
  const saveSettle = (): void => {
    const n = wholeNumber(settle, 1, 3600);
    if (n === null) return setSettle(folder.settle_seconds);
    if (n !== folder.settle_seconds) update.mutate({ id: folder.id, settle_seconds: n });
    setSettle(n);
  };
  return (
    <Paper withBorder p="md" radius="sm" data-testid="watch-folder" data-path={folder.path}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} ff="monospace" size="sm" truncate="start" title={folder.path}>
            <bdi dir="ltr">{folder.path}</bdi>
          </Text>
          <RowAction
            label={t('common.remove')}
            name={t('settings.folders.removeFolder', { path: folder.path })}
            onClick={() => setConfirming(true)}
          />
        </Group>
        <ConfirmDialog
          opened={confirming}
          title={t('settings.folders.confirmRemove')}
          confirm={t('common.remove')}
          danger
          loading={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate({ id: folder.id }, { onSuccess: () => setConfirming(false) })}
          onClose={() => setConfirming(false)}
          testId="folder-remove"
        >
          <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
            <bdi dir="ltr">{folder.path}</bdi>
          </Text>
        </ConfirmDialog>
        <Group align="flex-end" grow>
          <NativeSelect
            size="xs"
            label={t('settings.folders.examType')}
            value={folder.exam_type}
            data={folderExamTypeOptions(t)}
            onChange={(e) => update.mutate({ id: folder.id, exam_type: e.currentTarget.value as FolderExamType })}
          />
          <NativeSelect
            size="xs"
            label={t('settings.folders.mode')}
            value={folder.mode}
            data={folderModeOptions(t)}
            onChange={(e) => update.mutate({ id: folder.id, mode: e.currentTarget.value as 'auto' | 'review' })}
          />
          <NumberInput
            size="xs"
            label={t('settings.folders.settle')}
            value={settle}
            onChange={setSettle}
            onBlur={saveSettle}
            min={1}
            max={3600}
            allowDecimal={false}
          />
          <Switch
            size="sm"
            label={t('settings.folders.polling')}
            description={t('settings.folders.pollingHelp')}
            checked={folder.polling}
            onChange={(e) => update.mutate({ id: folder.id, polling: e.currentTarget.checked })}
          />
        </Group>
        <FolderShareRule folder={folder} />
        <ErrorAlert error={update.error} />
      </Stack>
    </Paper>
  );
}

function AddFolder() {
  const { t } = useTranslation();
  const transport = useTransport();
  const [path, setPath] = useState('');
  const [examType, setExamType] = useState<FolderExamType>('from_dicom');
  const [mode, setMode] = useState<'auto' | 'review'>('review');
  const [settle, setSettle] = useState<number | string>(DEFAULT_SETTLE);
  const [polling, setPolling] = useState(false);
  const add = useSettingsCall('folders:add');
  const pick = usePickFolder();
  const desktop = transport.kind === 'ipc';
  const submit = (): void => {
    const p = path.trim();
    if (!p) return;
    add.mutate(
      { path: p, exam_type: examType, mode, settle_seconds: wholeNumber(settle, 1, 3600) ?? DEFAULT_SETTLE, polling },
      { onSuccess: () => setPath('') },
    );
  };
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      aria-labelledby="settings-add-folder"
    >
      <Stack gap="sm">
        <Text fw={600} id="settings-add-folder">
          {t('settings.folders.addTitle')}
        </Text>
        <Group align="flex-end" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            label={t('settings.folders.path')}
            description={desktop ? t('settings.folders.pathHelpDesktop') : t('settings.folders.pathHelp')}
            value={path}
            onChange={(e) => setPath(e.currentTarget.value)}
            spellCheck={false}
            data-testid="folder-path"
          />
          {desktop && (
            <Button
              variant="default"
              loading={pick.isPending}
              onClick={() => pick.mutate({}, { onSuccess: (r) => r.path && setPath(r.path) })}
            >
              {t('settings.folders.browse')}
            </Button>
          )}
        </Group>
        <Group align="flex-end" grow>
          <NativeSelect
            label={t('settings.folders.examType')}
            value={examType}
            data={folderExamTypeOptions(t)}
            onChange={(e) => setExamType(e.currentTarget.value as FolderExamType)}
            data-testid="folder-exam-type"
          />
          <NativeSelect
            label={t('settings.folders.mode')}
            value={mode}
            data={folderModeOptions(t)}
            onChange={(e) => setMode(e.currentTarget.value as 'auto' | 'review')}
            data-testid="folder-mode"
          />
          <NumberInput
            label={t('settings.folders.settle')}
            value={settle}
            onChange={setSettle}
            min={1}
            max={3600}
            allowDecimal={false}
            data-testid="folder-settle"
          />
          <Switch
            label={t('settings.folders.polling')}
            description={t('settings.folders.pollingHelp')}
            checked={polling}
            onChange={(e) => setPolling(e.currentTarget.checked)}
            mb={2}
          />
        </Group>
        <Group>
          <Button type="submit" loading={add.isPending} disabled={!path.trim()} data-testid="folder-add">
            {t('settings.folders.add')}
          </Button>
        </Group>
        <ErrorAlert error={add.error ?? pick.error} />
      </Stack>
    </form>
  );
}

/** Watch folders: where the scanners export, and how each export is treated. */
export function FoldersSection({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  return (
    <SettingsSection id="folders" title={t('settings.folders.title')}>
      {settings.watch_folders.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('settings.folders.none')}
        </Text>
      ) : (
        settings.watch_folders.map((f) => <FolderRow key={f.id} folder={f} />)
      )}
      <AddFolder />
    </SettingsSection>
  );
}
