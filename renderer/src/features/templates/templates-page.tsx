import { Badge, Button, Group, Modal, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import type { TemplateView } from '../../../../preload/contract';
import { useCheckedForm } from '../../components/checked-form';
import { ErrorAlert } from '../../components/error-alert';
import { useDeleteTemplate, useTemplates, useUpdateTemplate } from './template-queries';
import { MiniSheet } from './slot-sheet';
import { RowAction } from '../../components/row-action';
import { ChangeNoticeAlert, DeleteDialog, deletedNotice, ListHeader, SandboxNotice } from '../../components/list-page';
import type { ChangeNotice } from '../../components/list-page';
import { Loading } from '../../components/loading';
import { FormButtons } from '../../components/form-buttons';

/** A layout's new name; the message is a problem code (`templates.problems.<code>`). */
const renameSchema = z.object({ name: z.string().trim().min(1, 'name_required') });

function RenameDialog({
  template,
  onClose,
  onRenamed,
}: {
  template: TemplateView;
  onClose: () => void;
  onRenamed: (name: string, sandbox: boolean) => void;
}) {
  const { t } = useTranslation();
  const form = useCheckedForm(renameSchema, { name: template.name }, (code) => `templates.problems.${code}`);
  const rename = useUpdateTemplate((r, args) => onRenamed(r.template.name || (args.name ?? ''), r.sandbox));
  const submit = ({ name }: { name: string }): void => {
    const next = name.trim();
    if (next === template.name) return onClose();
    rename.mutate({ id: template.id, name: next });
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('templates.renameTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form noValidate onSubmit={form.onSubmit(submit)}>
        <Stack gap="md">
          <TextInput
            label={t('templates.fields.name')}
            required
            {...form.getInputProps('name')}
            maxLength={200}
            data-autofocus
            data-testid="template-rename-input"
          />
          <ErrorAlert error={rename.error} />
          <FormButtons
            submit={t('common.save')}
            loading={rename.isPending}
            onCancel={onClose}
            testId="template-rename-save"
          />
        </Stack>
      </form>
    </Modal>
  );
}

function TemplateCard({
  template,
  onDelete,
  onRename,
}: {
  template: TemplateView;
  onDelete: () => void;
  onRename: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const slots = template.pages.reduce((n, p) => n + p.slots.length, 0);
  const open = (): void => void navigate(`/templates/${encodeURIComponent(template.id)}`);
  return (
    <Paper
      withBorder
      p="sm"
      component="li"
      data-testid="template-card"
      data-id={template.id}
      data-default={template.is_default}
      style={{ listStyle: 'none' }}
    >
      <Group align="flex-start" wrap="nowrap" gap="sm">
        <MiniSheet slots={template.pages[0]?.slots ?? []} />
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Text fw={600} lineClamp={2}>
            {template.name}
          </Text>
          {template.is_default && (
            <Badge variant="light" color="gray" size="sm" tt="none" h="auto" py={2} style={{ whiteSpace: 'normal' }}>
              {t('templates.readOnlyBadge')}
            </Badge>
          )}
          <Text size="xs" c="dimmed">
            {t('templates.pagesCount', { count: template.pages.length })} ·{' '}
            {t('templates.editor.slotCount', { count: slots })}
          </Text>
          <Group gap={6} mt={4}>
            {template.is_default ? (
              <>
                <Button
                  size="xs"
                  variant="default"
                  onClick={open}
                  aria-label={t('templates.viewOne', { name: template.name })}
                  data-testid="template-view"
                >
                  {t('templates.view')}
                </Button>
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => void navigate(`/templates/new?from=${encodeURIComponent(template.id)}`)}
                  aria-label={t('templates.copyOne', { name: template.name })}
                >
                  {t('templates.copyShort')}
                </Button>
              </>
            ) : (
              <>
                <RowAction
                  label={t('templates.edit')}
                  name={t('templates.editOne', { name: template.name })}
                  onClick={open}
                  testId="template-edit"
                />
                <RowAction
                  label={t('templates.rename')}
                  name={t('templates.renameOne', { name: template.name })}
                  onClick={onRename}
                  testId="template-rename"
                />
                <RowAction
                  label={t('templates.delete')}
                  name={t('templates.deleteOne', { name: template.name })}
                  onClick={onDelete}
                  danger
                  testId="template-delete"
                />
              </>
            )}
          </Group>
        </Stack>
      </Group>
    </Paper>
  );
}

/** Report layouts: the ready-made ones (read-only) and the clinic's own. */
export function TemplatesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const list = useTemplates();
  const [notice, setNotice] = useState<ChangeNotice | null>(
    (location.state as { notice?: ChangeNotice } | null)?.notice ?? null,
  );
  const [deleting, setDeleting] = useState<TemplateView | null>(null);
  const remove = useDeleteTemplate((sb) => {
    if (deleting) setNotice(deletedNotice('templates', deleting.name, sb));
    setDeleting(null);
  });
  const [renaming, setRenaming] = useState<TemplateView | null>(null);
  const templates = list.data?.templates ?? [];
  const own = templates.filter((x) => !x.is_default);
  const system = templates.filter((x) => x.is_default);
  const sandbox = list.data?.sandbox === true;
  return (
    <Stack gap="md">
      <ListHeader
        texts="templates"
        addLabel={t('templates.new')}
        onAdd={() => void navigate('/templates/new')}
        addTestId="template-new"
      />
      {sandbox && <SandboxNotice texts="templates" />}
      {notice && <ChangeNoticeAlert texts="templates" notice={notice} onClose={() => setNotice(null)} />}
      {list.isPending && <Loading />}
      <ErrorAlert error={list.error} />
      {list.data && (
        <>
          <section aria-labelledby="tpl-own">
            <Title order={3} size="h4" id="tpl-own" mb="xs">
              {t('templates.ownTitle')}
            </Title>
            {own.length === 0 ? (
              <Text c="dimmed" size="sm" data-testid="templates-own-empty">
                {t('templates.ownEmpty')}
              </Text>
            ) : (
              <SimpleGrid cols={3} spacing="sm" component="ul" p={0} m={0} data-testid="templates-own">
                {own.map((x) => (
                  <TemplateCard
                    key={x.id}
                    template={x}
                    onDelete={() => setDeleting(x)}
                    onRename={() => setRenaming(x)}
                  />
                ))}
              </SimpleGrid>
            )}
          </section>
          <section aria-labelledby="tpl-system">
            <Title order={3} size="h4" id="tpl-system" mb={4}>
              {t('templates.systemTitle')}
            </Title>
            <Text c="dimmed" size="sm" mb="xs">
              {t('templates.systemIntro')}
            </Text>
            <SimpleGrid cols={3} spacing="sm" component="ul" p={0} m={0} data-testid="templates-system">
              {system.map((x) => (
                <TemplateCard key={x.id} template={x} onDelete={() => undefined} onRename={() => undefined} />
              ))}
            </SimpleGrid>
          </section>
        </>
      )}
      {renaming && (
        <RenameDialog
          template={renaming}
          onClose={() => setRenaming(null)}
          onRenamed={(name, sb) => {
            setNotice({
              sandbox: sb,
              name,
              key: sb ? 'templates.savedSandbox' : 'templates.renamed',
            });
            setRenaming(null);
          }}
        />
      )}
      {deleting && (
        <DeleteDialog
          texts="templates"
          item={deleting}
          remove={remove}
          onClose={() => setDeleting(null)}
          testId="template-delete"
        />
      )}
    </Stack>
  );
}
