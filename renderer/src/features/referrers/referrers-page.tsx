import { Alert, Button, Group, Loader, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReferrerView } from '../../../../preload/contract';
import { ErrorAlert } from '../../components/error-alert';
import { useDeleteReferrer, useReferrers } from './referrer-queries';
import { ReferrerDialog } from './referrer-dialog';
import { matchesSearch } from './referrer-form';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { RowAction } from '../../components/row-action';

/** A notice's text key and the name it names: its words follow the window's language while it is shown. */
type Notice = { key: string; name: string; sandbox: boolean };

function DeleteDialog({
  referrer,
  onClose,
  onDeleted,
}: {
  referrer: ReferrerView;
  onClose: () => void;
  onDeleted: (sandbox: boolean) => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteReferrer(onDeleted);
  return (
    <ConfirmDialog
      opened
      title={t('referrers.deleteTitle')}
      body={t('referrers.deleteBody', { name: referrer.name })}
      confirm={t('referrers.delete')}
      danger
      loading={remove.isPending}
      error={remove.error}
      onConfirm={() => remove.mutate({ id: referrer.id })}
      onClose={onClose}
      testId="referrer-delete"
    />
  );
}

type TableProps = {
  shown: ReferrerView[];
  onEdit: (r: ReferrerView) => void;
  onDelete: (r: ReferrerView) => void;
};

function ReferrersTable({ shown, onEdit, onDelete }: TableProps) {
  const { t } = useTranslation();
  return (
    <Table striped highlightOnHover verticalSpacing="xs" data-testid="referrers-table">
      <Table.Caption>{t('referrers.count', { count: shown.length })}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('referrers.fields.name')}</Table.Th>
          <Table.Th scope="col">{t('referrers.fields.specialty')}</Table.Th>
          <Table.Th scope="col">{t('referrers.fields.email')}</Table.Th>
          <Table.Th scope="col">{t('referrers.fields.phone')}</Table.Th>
          <Table.Th scope="col">
            <VisuallyHidden>{t('referrers.actions')}</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {shown.map((r) => (
          <Table.Tr key={r.id} data-testid="referrer-row" data-id={r.id}>
            <Table.Th scope="row" fw={600}>
              {r.name}
            </Table.Th>
            <Table.Td>{r.specialty ?? '—'}</Table.Td>
            <Table.Td>{r.email ?? '—'}</Table.Td>
            <Table.Td>{r.phone ?? '—'}</Table.Td>
            <Table.Td>
              <Group gap="xs" justify="flex-end" wrap="nowrap">
                <RowAction
                  label={t('referrers.edit')}
                  name={t('referrers.editOne', { name: r.name })}
                  onClick={() => onEdit(r)}
                />
                <RowAction
                  label={t('referrers.delete')}
                  name={t('referrers.deleteOne', { name: r.name })}
                  onClick={() => onDelete(r)}
                  danger
                />
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The directory of referring dentists: sorted by name as the service sends it, searched here. */
export function ReferrersPage() {
  const { t } = useTranslation();
  const list = useReferrers();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<ReferrerView | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ReferrerView | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const all = list.data?.referrers;
  const shown = useMemo(() => (all ?? []).filter((r) => matchesSearch(r, search)), [all, search]);
  const sandbox = list.data?.sandbox === true;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2}>{t('referrers.title')}</Title>
          <Text c="dimmed" size="sm">
            {t('referrers.intro')}
          </Text>
        </div>
        <Button onClick={() => setEditing('new')} data-testid="referrer-add">
          {t('referrers.add')}
        </Button>
      </Group>
      {sandbox && (
        <Alert color="yellow" variant="light" title={t('referrers.sandboxTitle')} data-testid="referrers-sandbox">
          <Text size="sm">{t('referrers.sandboxBody')}</Text>
        </Alert>
      )}
      {notice && (
        <Alert
          color={notice.sandbox ? 'yellow' : 'green'}
          variant="light"
          role="status"
          withCloseButton
          closeButtonLabel={t('common.close')}
          onClose={() => setNotice(null)}
          data-testid="referrers-notice"
        >
          <Text size="sm">{t(notice.key, { name: notice.name })}</Text>
        </Alert>
      )}
      <TextInput
        label={t('referrers.search')}
        placeholder={t('referrers.searchPlaceholder')}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        type="search"
        maw={420}
        data-testid="referrers-search"
      />
      {list.isPending && <Loader aria-label={t('common.loading')} />}
      <ErrorAlert error={list.error} />
      {all && all.length === 0 && (
        <Text c="dimmed" data-testid="referrers-empty">
          {sandbox ? t('referrers.emptySandbox') : t('referrers.empty')}
        </Text>
      )}
      {all && all.length > 0 && shown.length === 0 && <Text c="dimmed">{t('referrers.noMatch', { search })}</Text>}
      {shown.length > 0 && <ReferrersTable shown={shown} onEdit={setEditing} onDelete={setDeleting} />}
      {editing && (
        <ReferrerDialog
          referrer={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved, created) => {
            setEditing(null);
            setNotice({
              sandbox: saved.sandbox,
              name: saved.referrer.name,
              key: saved.sandbox ? 'referrers.savedSandbox' : created ? 'referrers.created' : 'referrers.updated',
            });
          }}
        />
      )}
      {deleting && (
        <DeleteDialog
          referrer={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={(sb) => {
            setNotice({
              sandbox: sb,
              name: deleting.name,
              key: sb ? 'referrers.deletedSandbox' : 'referrers.deleted',
            });
            setDeleting(null);
          }}
        />
      )}
    </Stack>
  );
}
