import { Button, Group, NativeSelect, NumberInput, Paper, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { FolderExamType, Settings, WatchFolder } from '../../../../preload/contract';
import { usePickFolder, useSettingsCall } from '../../app/queries';
import { useTransport } from '../../app/transport-context';
import { useCheckedForm } from '../../components/checked-form';
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

type NewFolder = {
  path: string;
  examType: FolderExamType;
  mode: 'auto' | 'review';
  settle: number | string;
  polling: boolean;
};

/** A new watch folder needs its path; Add stays off until one is written. */
const newFolderSchema = z.object({ path: z.string().trim().min(1) });

function AddFolder() {
  const { t } = useTranslation();
  const transport = useTransport();
  const form = useCheckedForm<NewFolder>(newFolderSchema, {
    path: '',
    examType: 'from_dicom',
    mode: 'review',
    settle: DEFAULT_SETTLE,
    polling: false,
  });
  const add = useSettingsCall('folders:add');
  const pick = usePickFolder();
  const desktop = transport.kind === 'ipc';
  const submit = ({ path, examType, mode, settle, polling }: NewFolder): void => {
    add.mutate(
      {
        path: path.trim(),
        exam_type: examType,
        mode,
        settle_seconds: wholeNumber(settle, 1, 3600) ?? DEFAULT_SETTLE,
        polling,
      },
      { onSuccess: () => form.setFieldValue('path', '') },
    );
  };
  return (
    <form noValidate onSubmit={form.onSubmit(submit)} aria-labelledby="settings-add-folder">
      <Stack gap="sm">
        <Text fw={600} id="settings-add-folder">
          {t('settings.folders.addTitle')}
        </Text>
        <Group align="flex-end" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            label={t('settings.folders.path')}
            description={desktop ? t('settings.folders.pathHelpDesktop') : t('settings.folders.pathHelp')}
            {...form.getInputProps('path', { withError: false })}
            spellCheck={false}
            data-testid="folder-path"
          />
          {desktop && (
            <Button
              variant="default"
              loading={pick.isPending}
              onClick={() => pick.mutate({}, { onSuccess: (r) => r.path && form.setFieldValue('path', r.path) })}
            >
              {t('settings.folders.browse')}
            </Button>
          )}
        </Group>
        <Group align="flex-end" grow>
          <NativeSelect
            label={t('settings.folders.examType')}
            {...form.getInputProps('examType')}
            data={folderExamTypeOptions(t)}
            data-testid="folder-exam-type"
          />
          <NativeSelect
            label={t('settings.folders.mode')}
            {...form.getInputProps('mode')}
            data={folderModeOptions(t)}
            data-testid="folder-mode"
          />
          <NumberInput
            label={t('settings.folders.settle')}
            {...form.getInputProps('settle')}
            min={1}
            max={3600}
            allowDecimal={false}
            data-testid="folder-settle"
          />
          <Switch
            label={t('settings.folders.polling')}
            description={t('settings.folders.pollingHelp')}
            {...form.getInputProps('polling', { type: 'checkbox' })}
            mb={2}
          />
        </Group>
        <Group>
          <Button type="submit" loading={add.isPending} disabled={!form.isValid()} data-testid="folder-add">
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
