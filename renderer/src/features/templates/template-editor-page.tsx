import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import type { TemplateSaved, TemplateView } from '../../../../preload/contract';
import { ErrorAlert } from '../../components/error-alert';
import type { EditorDraft } from './editor-state';
import { draftOf, newDraft, pagesInput, templateChanges } from './editor-state';
import { useCreateTemplate, useTemplate, useUpdateTemplate } from './template-queries';
import { MiniSheet } from './slot-sheet';
import { TemplateEditor } from './template-editor';
import type { ChangeNotice } from '../../components/list-page';
import { Loading } from '../../components/loading';

/** A ready-made layout: shown, never editable; it can be copied into a new own layout. */
function SystemTemplateView({ template }: { template: TemplateView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{template.name}</Title>
        <Group gap="xs">
          <Button variant="default" onClick={() => void navigate('/templates')}>
            {t('templates.back')}
          </Button>
          <Button
            onClick={() => void navigate(`/templates/new?from=${encodeURIComponent(template.id)}`)}
            data-testid="template-copy"
          >
            {t('templates.copy')}
          </Button>
        </Group>
      </Group>
      <Alert color="gray" variant="light" title={t('templates.readOnlyTitle')}>
        <Text size="sm">{t('templates.readOnlyBody')}</Text>
      </Alert>
      {template.description && <Text>{template.description}</Text>}
      <Group gap="lg" align="flex-start">
        {template.pages.map((p, i) => (
          <Stack key={i} gap={4} align="center">
            <div style={{ width: 260 }}>
              <MiniSheetLarge slots={p.slots} />
            </div>
            <Text size="sm" fw={600}>
              {p.name ?? t('templates.editor.pageN', { n: i + 1 })}
            </Text>
            <Text size="xs" c="dimmed">
              {t('templates.editor.slotCount', { count: p.slots.length })}
            </Text>
          </Stack>
        ))}
      </Group>
    </Stack>
  );
}

function MiniSheetLarge({ slots }: { slots: TemplateView['pages'][number]['slots'] }) {
  return (
    <div className="tpl-mini-large">
      <MiniSheet slots={slots} labelled />
    </div>
  );
}

/** `/templates/new` (optionally `?from=<id>` to start from a copy) and `/templates/:templateId`. */
export function TemplateEditorPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { templateId } = useParams();
  const [search] = useSearchParams();
  const from = search.get('from') ?? undefined;
  const editing = useTemplate(templateId);
  const leaving = useRef(false);
  const source = useTemplate(templateId ? undefined : from);
  const done = (saved: TemplateSaved, created: boolean): void => {
    const notice: ChangeNotice = {
      sandbox: saved.sandbox,
      name: saved.template.name,
      key: saved.sandbox ? 'templates.savedSandbox' : created ? 'templates.created' : 'templates.updated',
    };
    leaving.current = true;
    void navigate('/templates', { state: { notice } });
  };
  const create = useCreateTemplate((saved) => done(saved, true));
  const update = useUpdateTemplate((saved) => done(saved, false));

  const initial = useMemo<EditorDraft | null>(() => {
    if (templateId) return editing.data && !editing.data.is_default ? draftOf(editing.data) : null;
    if (from) return source.data ? draftOf(source.data, t('templates.copyName', { name: source.data.name })) : null;
    return newDraft();
    // The draft is made once per template read; later cache refreshes must not wipe edits in progress.
  }, [templateId, from, editing.data?.id, source.data?.id]);

  const loading = templateId ? editing.isPending : from ? source.isPending : false;
  const loadError = templateId ? editing.error : from ? source.error : null;
  if (loading) return <Loading />;
  if (loadError) return <ErrorAlert error={loadError} />;
  if (templateId && editing.data?.is_default) return <SystemTemplateView template={editing.data} />;
  if (!initial) return <ErrorAlert error={{ code: 'not_found', message: 'Template not found.' }} />;

  const save = (d: EditorDraft): void => {
    if (templateId && editing.data) {
      const changes = templateChanges(editing.data, d);
      if (Object.keys(changes).length === 0) {
        leaving.current = true;
        return void navigate('/templates');
      }
      update.mutate({ id: templateId, ...changes });
    } else {
      create.mutate({
        name: d.name.trim(),
        ...(d.description.trim() ? { description: d.description.trim() } : {}),
        pages: pagesInput(d.pages),
      });
    }
  };

  return (
    <TemplateEditor
      key={templateId ?? from ?? 'new'}
      title={templateId ? t('templates.editTitle') : t('templates.newTitle')}
      initial={initial}
      saving={create.isPending || update.isPending}
      onSave={save}
      onCancel={() => void navigate('/templates')}
      error={<ErrorAlert error={create.error ?? update.error} />}
      canLeave={() => leaving.current}
    />
  );
}
