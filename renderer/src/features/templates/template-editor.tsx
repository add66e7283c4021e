import { Alert, Button, Group, Paper, ScrollArea, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DecimalInput } from '../../components/decimal-input';
import { useBlocker } from 'react-router';
import type { DraftProblem, EditorDraft, EditorPage, EditorSlot } from './editor-state';
import { draftProblems, emptyPage, MAX_PAGES, MAX_SLOTS, pagesInput, slotOf } from './editor-state';
import type { Rect } from './geometry';
import { clampRect, newSlotRect, percent, round } from './geometry';
import { SlotSheet } from './slot-sheet';
import { ConfirmDialog } from '../../components/confirm-dialog';

type Props = {
  title: string;
  initial: EditorDraft;
  saving: boolean;
  /** Called with a draft that has no problems left. */
  onSave: (draft: EditorDraft) => void;
  onCancel: () => void;
  /** Shown under the buttons (the service's answer when it refused). */
  error?: React.ReactNode;
  /** True once the draft is saved: leaving then needs no question. */
  canLeave: () => boolean;
};

const snapshot = (d: EditorDraft): string => JSON.stringify([d.name.trim(), d.description.trim(), pagesInput(d.pages)]);

function SlotFields({
  slot,
  index,
  onRect,
  onLabel,
  onRemove,
}: {
  slot: EditorSlot;
  index: number;
  onRect: (r: Rect) => void;
  onLabel: (l: string) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  // Percentages for people (12,5 or 12.5 alike); the slot itself keeps fractions of the page.
  const field = (k: keyof Rect, label: string) => (
    <DecimalInput
      size="xs"
      label={label}
      value={percent(slot[k])}
      rule={{ min: 0, max: 100, decimals: 1 }}
      unit="%"
      onChange={(r) => {
        if (r.kind === 'ok') onRect(clampRect({ ...slot, [k]: round(r.value / 100) }));
      }}
      testId={`slot-field-${k}`}
    />
  );
  return (
    <Paper withBorder p="xs" data-testid="slot-fields">
      <Stack gap={6}>
        <Text size="sm" fw={600}>
          {t('templates.editor.selectedSlot', { n: index + 1 })}
        </Text>
        <TextInput
          size="xs"
          label={t('templates.editor.slotLabel')}
          description={t('templates.editor.slotLabelHelp')}
          value={slot.label}
          maxLength={100}
          onChange={(e) => onLabel(e.currentTarget.value)}
          data-testid="slot-label"
        />
        <Group grow gap="xs">
          {field('x', t('templates.editor.left'))}
          {field('y', t('templates.editor.top'))}
        </Group>
        <Group grow gap="xs">
          {field('w', t('templates.editor.width'))}
          {field('h', t('templates.editor.height'))}
        </Group>
        <Button size="xs" variant="default" c="red.9" onClick={onRemove} data-testid="slot-remove">
          {t('templates.editor.removeSlot')}
        </Button>
      </Stack>
    </Paper>
  );
}

/** The problems that keep the draft from being saved (the missing name shows at its field). */
function DraftProblems({ problems }: { problems: DraftProblem[] }) {
  const { t } = useTranslation();
  const listed = problems.filter((p) => p.code !== 'name_required');
  if (listed.length === 0) return null;
  return (
    <Alert color="red" variant="light" role="alert" title={t('templates.problems.title')}>
      {listed.map((p) => (
        <Text size="sm" key={`${p.code}-${p.page ?? 0}`}>
          {t(`templates.problems.${p.code}`, {
            page: p.page ?? 0,
            max: p.code === 'too_many_pages' ? MAX_PAGES : MAX_SLOTS,
          })}
        </Text>
      ))}
    </Alert>
  );
}

/** One button per page, and the buttons that add a page and remove the current one. */
function PageTabs({
  pages,
  current,
  onPick,
  onAdd,
  onRemove,
}: {
  pages: EditorPage[];
  current: number;
  onPick: (index: number) => void;
  onAdd: () => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div role="group" aria-label={t('templates.editor.pages')}>
      <Text size="sm" fw={600} mb={4}>
        {t('templates.editor.pages')}
      </Text>
      <Group gap={6}>
        {pages.map((p, i) => (
          <Button
            key={p.key}
            size="xs"
            variant={i === current ? 'filled' : 'default'}
            aria-pressed={i === current}
            onClick={() => onPick(i)}
            data-testid="template-page-tab"
          >
            {t('templates.editor.pageN', { n: i + 1 })}
          </Button>
        ))}
        <Button
          size="xs"
          variant="light"
          onClick={onAdd}
          disabled={pages.length >= MAX_PAGES}
          data-testid="template-add-page"
        >
          {t('templates.editor.addPage')}
        </Button>
        <Button
          size="xs"
          variant="default"
          c={pages.length > 1 ? 'red.9' : undefined}
          onClick={onRemove}
          disabled={pages.length <= 1}
          data-testid="template-remove-page"
        >
          {t('templates.editor.removePage', { n: current + 1 })}
        </Button>
      </Group>
    </div>
  );
}

/** Asks before unsaved work is left behind. */
function LeaveModal({ onStay, onLeave }: { onStay: () => void; onLeave: () => void }) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      opened
      title={t('templates.leaveTitle')}
      body={t('templates.leaveBody')}
      cancel={t('templates.keepEditing')}
      confirm={t('templates.discard')}
      danger
      onConfirm={onLeave}
      onClose={onStay}
      testId="template-leave"
      cancelTestId="template-keep-editing"
      confirmTestId="template-discard"
    />
  );
}

/** How to draw and move slots with the mouse and the keyboard. */
function EditorHelp({ id }: { id: string }) {
  const { t } = useTranslation();
  return (
    <Paper bg="gray.0" p="xs" id={id}>
      <Text size="xs" fw={600}>
        {t('templates.editor.helpTitle')}
      </Text>
      <Text size="xs">{t('templates.editor.helpMouse')}</Text>
      <Text size="xs">{t('templates.editor.helpKeys')}</Text>
    </Paper>
  );
}

/**
 * The draft being edited and the page and slot in hand, with the edits the editor offers; each edit
 * is announced to screen readers through `announcement`.
 */
function useDraftEdits(initial: EditorDraft) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<EditorDraft>(initial);
  const [pageIndex, setPageIndex] = useState(0);
  const [selected, setSelected] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const page = draft.pages[Math.min(pageIndex, draft.pages.length - 1)] as EditorPage;
  const current = Math.min(pageIndex, draft.pages.length - 1);
  const selectedIndex = page.slots.findIndex((s) => s.key === selected);
  const selectedSlot = selectedIndex >= 0 ? page.slots[selectedIndex] : undefined;

  const setPage = (fn: (p: EditorPage) => EditorPage): void =>
    setDraft((d) => ({ ...d, pages: d.pages.map((p, i) => (i === current ? fn(p) : p)) }));
  const setSlot = (key: string, fn: (s: EditorSlot) => EditorSlot): void =>
    setPage((p) => ({ ...p, slots: p.slots.map((s) => (s.key === key ? fn(s) : s)) }));
  const describe = (s: Rect): string =>
    t('templates.editor.position', { x: percent(s.x), y: percent(s.y), w: percent(s.w), h: percent(s.h) });

  const addSlot = (r: Rect): void => {
    if (page.slots.length >= MAX_SLOTS) return setAnnouncement(t('templates.editor.slotLimit', { max: MAX_SLOTS }));
    const slot = slotOf(r);
    setPage((p) => ({ ...p, slots: [...p.slots, slot] }));
    setSelected(slot.key);
    setAnnouncement(t('templates.editor.added', { n: page.slots.length + 1, position: describe(slot) }));
  };
  const removeSlot = (key: string): void => {
    setPage((p) => ({ ...p, slots: p.slots.filter((s) => s.key !== key) }));
    setSelected(null);
    setAnnouncement(t('templates.editor.removed'));
  };
  const addPage = (): void => {
    if (draft.pages.length >= MAX_PAGES) return;
    setDraft((d) => ({ ...d, pages: [...d.pages, emptyPage()] }));
    setPageIndex(draft.pages.length);
    setSelected(null);
    setAnnouncement(t('templates.editor.pageAdded', { n: draft.pages.length + 1 }));
  };
  const removePage = (): void => {
    if (draft.pages.length <= 1) return;
    setDraft((d) => ({ ...d, pages: d.pages.filter((_p, i) => i !== current) }));
    setPageIndex(Math.max(0, current - 1));
    setSelected(null);
    setAnnouncement(t('templates.editor.pageRemoved', { n: current + 1 }));
  };

  const pickPage = (i: number): void => {
    setPageIndex(i);
    setSelected(null);
  };
  const moveSlot = (key: string, rect: Rect, how: 'keyboard' | 'mouse'): void => {
    setSlot(key, (s) => ({ ...s, ...rect }));
    if (how === 'keyboard') setAnnouncement(describe(rect));
  };

  return {
    draft,
    setDraft,
    page,
    current,
    selected,
    setSelected,
    selectedIndex,
    selectedSlot,
    announcement,
    setPage,
    setSlot,
    addSlot,
    removeSlot,
    addPage,
    removePage,
    pickPage,
    moveSlot,
  };
}

/** The visual slot editor: one A4 page at a time, slots drawn and placed with the mouse or the keyboard. */
export function TemplateEditor({ title, initial, saving, onSave, onCancel, error, canLeave }: Props) {
  const { t } = useTranslation();
  const helpId = useId();
  const edits = useDraftEdits(initial);
  const { draft, setDraft, page, current, selected, selectedIndex, selectedSlot } = edits;
  const [showProblems, setShowProblems] = useState(false);
  const problems = draftProblems(draft);
  // Work in progress is never dropped silently: leaving with unsaved changes asks first.
  const [start] = useState(() => snapshot(initial));
  const dirty = snapshot(draft) !== start;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && !canLeave() && currentLocation.pathname !== nextLocation.pathname,
  );

  const save = (): void => {
    setShowProblems(true);
    if (problems.length === 0) onSave(draft);
  };

  return (
    <Stack gap="sm" h="100%">
      <Group justify="space-between" wrap="nowrap">
        <Title order={2}>{title}</Title>
        <Group gap="xs" wrap="nowrap">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button onClick={save} loading={saving} data-testid="template-save">
            {t('templates.editor.save')}
          </Button>
        </Group>
      </Group>
      <Group grow align="flex-start" gap="sm">
        <TextInput
          size="sm"
          label={t('templates.fields.name')}
          required
          value={draft.name}
          maxLength={200}
          onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
          data-testid="template-name"
          error={showProblems && !draft.name.trim() ? t('templates.problems.name_required') : undefined}
        />
        <TextInput
          size="sm"
          label={t('templates.fields.description')}
          value={draft.description}
          maxLength={2000}
          onChange={(e) => setDraft({ ...draft, description: e.currentTarget.value })}
          data-testid="template-description"
        />
      </Group>
      {showProblems && <DraftProblems problems={problems} />}
      {error}
      <Group align="stretch" gap="md" wrap="nowrap" style={{ height: 'calc(100vh - 270px)', minHeight: 420 }}>
        <div style={{ height: '100%', display: 'flex', justifyContent: 'center', flex: '0 0 auto' }}>
          <SlotSheet
            slots={page.slots}
            selected={selected}
            pageLabel={t('templates.editor.pageOf', { n: current + 1, total: draft.pages.length })}
            helpId={helpId}
            onSelect={edits.setSelected}
            onDraw={edits.addSlot}
            onChange={edits.moveSlot}
          />
        </div>
        <ScrollArea style={{ flex: 1 }} type="auto" offsetScrollbars>
          <Stack gap="sm">
            <PageTabs
              pages={draft.pages}
              current={current}
              onPick={edits.pickPage}
              onAdd={edits.addPage}
              onRemove={edits.removePage}
            />
            <TextInput
              size="xs"
              label={t('templates.editor.pageName', { n: current + 1 })}
              value={page.name}
              maxLength={100}
              onChange={(e) => edits.setPage((p) => ({ ...p, name: e.currentTarget.value }))}
              data-testid="template-page-name"
            />
            <Group gap="xs">
              <Button
                size="xs"
                onClick={() => edits.addSlot(newSlotRect(page.slots.length))}
                disabled={page.slots.length >= MAX_SLOTS}
                data-testid="template-add-slot"
              >
                {t('templates.editor.addSlot')}
              </Button>
              <Text size="xs" c="dimmed">
                {t('templates.editor.slotCount', { count: page.slots.length })}
              </Text>
            </Group>
            {selectedSlot ? (
              <SlotFields
                slot={selectedSlot}
                index={selectedIndex}
                onRect={(r) => edits.setSlot(selectedSlot.key, (s) => ({ ...s, ...r }))}
                onLabel={(label) => edits.setSlot(selectedSlot.key, (s) => ({ ...s, label }))}
                onRemove={() => edits.removeSlot(selectedSlot.key)}
              />
            ) : (
              <Text size="sm" c="dimmed">
                {t('templates.editor.noSelection')}
              </Text>
            )}
            <EditorHelp id={helpId} />
          </Stack>
        </ScrollArea>
      </Group>
      {blocker.state === 'blocked' && <LeaveModal onStay={() => blocker.reset()} onLeave={() => blocker.proceed()} />}
      <VisuallyHidden aria-live="polite" data-testid="template-announcer">
        {edits.announcement}
      </VisuallyHidden>
    </Stack>
  );
}
