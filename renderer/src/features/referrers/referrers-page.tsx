import { Group, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReferrerView } from '../../../../preload/contract';
import { ErrorAlert } from '../../components/error-alert';
import { useDeleteReferrer, useReferrers } from './referrer-queries';
import { ReferrerDialog } from './referrer-dialog';
import { matchesSearch } from './referrer-form';
import { RowAction } from '../../components/row-action';
import { ChangeNoticeAlert, DeleteDialog, deletedNotice, ListHeader, SandboxNotice } from '../../components/list-page';
import type { ChangeNotice } from '../../components/list-page';
import { Loading } from '../../components/loading';

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
  const [notice, setNotice] = useState<ChangeNotice | null>(null);
  const remove = useDeleteReferrer((sb) => {
    if (deleting) setNotice(deletedNotice('referrers', deleting.name, sb));
    setDeleting(null);
  });
  const all = list.data?.referrers;
  const shown = useMemo(() => (all ?? []).filter((r) => matchesSearch(r, search)), [all, search]);
  const sandbox = list.data?.sandbox === true;

  return (
    <Stack gap="md">
      <ListHeader
        texts="referrers"
        addLabel={t('referrers.add')}
        onAdd={() => setEditing('new')}
        addTestId="referrer-add"
      />
      {sandbox && <SandboxNotice texts="referrers" />}
      {notice && <ChangeNoticeAlert texts="referrers" notice={notice} onClose={() => setNotice(null)} />}
      <TextInput
        label={t('referrers.search')}
        placeholder={t('referrers.searchPlaceholder')}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        type="search"
        maw={420}
        data-testid="referrers-search"
      />
      {list.isPending && <Loading />}
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
          texts="referrers"
          item={deleting}
          remove={remove}
          onClose={() => setDeleting(null)}
          testId="referrer-delete"
        />
      )}
    </Stack>
  );
}
